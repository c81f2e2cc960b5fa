// The umbrella: `import OpenInPolicy` gives every module of the library, as it did when they were one.
@_exported import OpenInAppConnect
@_exported import OpenInCore
@_exported import OpenInFleet
@_exported import OpenInIntune
@_exported import OpenInKit
@_exported import OpenInVendors
