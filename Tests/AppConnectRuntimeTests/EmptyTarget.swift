// SwiftPM needs at least one source file in every target; the runtime's own tests replace this file.
