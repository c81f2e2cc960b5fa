import OpenInPolicy
import OpenInReports

extension FleetReportOutput {
    /// `fleet report`: gathers the page's data from the analysis (every device's paths, the fixes, the matrix, lint) and writes the page.
    static func run(_ analysis: FleetAnalysis, input: VendorInput, devices devicesPath: String?, baseline: BaselineRun?, title: String?,
                    console: Console) throws(CLIError) -> ExitStatus {
        let path = input.path
        var baseline = baseline
        var devices: [Device] = []
        var records: [String] = []
        var recordBytes = 0
        var omittedRecords = 0
        let lint = analysis.lint()
        let analyzed: [AnalyzedDevice]
        do throws(FleetError) { analyzed = try analysis.devices() } catch { throw FleetOutput.fail(error) }
        for device in analyzed {
            var entry = Device(name: device.name, zone: device.zoneDescription, inside: device.zone.count)
            do throws(FleetError) {
                // One search at a time (a fleet's every search held at once is O(apps²) memory); the settings and
                // reproduce commands only for the paths the page lists, the rest kept as the graph draws them.
                var dataFull = false
                try device.forEachReach { (reach) throws(FleetError) in
                    guard !device.isOutside(.app(reach.from)) else { return }
                    // The counts from the search alone; the hops only for a path the page lists or a record that fits the data.
                    var reachedOutside = 0
                    for node in reach.reached where device.isOutside(node) {
                        entry.outside.insert(node.description)
                        reachedOutside += 1
                    }
                    entry.pathCount += reachedOutside
                    if reachedOutside > 0 { entry.leaking += 1 }
                    if dataFull, entry.paths.count >= maxPathsListed {
                        omittedRecords += 1
                        return
                    }
                    let all = try device.paths(reach)
                    let shown = all.filter { device.isOutside($0.to) }
                    var chains = ChainMemo<[UInt8]>(separator: [UInt8(ascii: ",")])
                    let record = PathsWriter.record(device, app: reach.from, installed: true, shown, summary: device.summary(of: all), first: records.isEmpty,
                                                    chains: &chains)
                    if recordBytes + record.utf8.count > maxDataBytes {
                        omittedRecords += 1
                        dataFull = true
                    } else {
                        recordBytes += record.utf8.count
                        records.append(record)
                    }
                    for path in shown where entry.paths.count < maxPathsListed {
                        let hops = path.hops.map { hop in
                            Hop(from: hop.from.description, to: hop.to.description, channel: hop.channel.rawValue, url: hop.request.url?.rawValue,
                                rules: hop.rules.map(\.rawValue),
                                settings: hop.settings.map { "\($0.side) \($0.app): \($0.policy) (\($0.via)) \($0.key) = \($0.value)\($0.place.isEmpty ? "" : " at " + $0.place)" },
                                reproduce: device.reproduceCommand(hop))
                        }
                        var shownPath = Path(from: reach.from.rawValue, to: path.to.description, hops: hops)
                        if baseline != nil {
                            let (state, accepted) = baseline!.judge(device: device.name, from: reach.from, to: path.to)
                            // The reason next to the expiry (an expired path's mark carries it already).
                            shownPath.state = BaselineRun.mark(state, accepted) + (state == .accepted ? " (\(DecisionText.escaped(accepted?.reason ?? "")))" : "")
                        }
                        entry.paths.append(shownPath)
                    }
                }
                if device.nodes.count <= maxMatrixApps { entry.matrix = try device.matrix() }
            } catch {
                throw FleetOutput.fail(error)
            }
            devices.append(entry)
        }
        let report = try FleetFixesOutput.report(try FleetFixesOutput.subject(input, analysis: analysis, scope: FixScope()), baseline: baseline,
                                                 budget: maxCandidatesVerified)
        let pathsJSON = records.isEmpty ? "[]" : records.joined() + "\n]"
        // The fixes' data whole or not at all, within the same byte budget as the paths' (long names repeat in it).
        var fixesJSON = JSONWriter.pretty(report.json(listing: maxPathsListed))
        let fixesOmitted = fixesJSON.utf8.count > maxDataBytes
        if fixesOmitted { fixesJSON = "null" }
        var data = "{\"paths\": " + pathsJSON + ",\n\"fixes\": " + fixesJSON
        if omittedRecords > 0 { data += ",\n\"pathsOmitted\": \(omittedRecords)" }
        if fixesOmitted { data += ",\n\"fixesOmitted\": true" }
        data += "}"
        let page = html(title: title ?? "openin-check fleet report: \(path)", file: path, devices: devices, report: report, findings: lint.findings,
                        lintFile: analysis.file ?? path, data: data, omittedRecords: omittedRecords, fixesOmitted: fixesOmitted)
        console.stdout.write(page)
        return .success
    }
}
