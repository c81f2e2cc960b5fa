import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// A decision table that cannot be read: what is wrong, where (the file as
/// given to the runner and the 1-based line; no line when the problem is the
/// file as a whole), and how to fix it.
public typealias TableError = FormatError
