import OpenInPolicy

extension FleetReportOutput {
    /// Why the page could not be made: the fleet cannot be analysed, or its fixes cannot be found.
    public enum Failure: Error {
        /// The fleet's analysis failed.
        case fleet(FleetError)
        /// The fixes could not be found.
        case fixes(FixError)
    }

    /// `fleet report`'s page: gathers its data from the analysis of the fleet file read once (`bytes`, `nil` for a folder of
    /// exports, at `path`): every device's paths (judged against `baseline` on `today`), the fixes and plan, the matrix, lint.
    public static func page(_ analysis: FleetAnalysis, bytes: [UInt8]?, path: String, baseline: BaselineRun?, today: BaselineDate,
                             title: String?) throws(Failure) -> String {
        var baseline = baseline
        var devices: [Device] = []
        var records: [String] = []
        var recordBytes = 0
        var omittedRecords = 0
        let lint = analysis.lint()
        let analyzed: [AnalyzedDevice]
        do throws(FleetError) { analyzed = try analysis.devices() } catch { throw .fleet(error) }
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
                throw .fleet(error)
            }
            devices.append(entry)
        }
        let report: FleetFixReport
        do throws(FixError) {
            report = try analysis.fixes(bytes: bytes, path: path, baseline: baseline, today: today, budget: maxCandidatesVerified)
        } catch {
            throw .fixes(error)
        }
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
        return page
    }
}
