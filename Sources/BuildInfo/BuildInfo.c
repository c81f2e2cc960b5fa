// The one thing SwiftPM cannot pass to Swift at build time without a plugin is a
// value; a C macro can carry one. The install command in the README defines
// OPENIN_CHECK_COMMIT as the short hash of HEAD (hex digits: a C token that
// stringifies to itself); a plain `swift build` defines nothing.
#include "BuildInfo.h"

#define OPENIN_CHECK_STRINGIFY_VALUE(x) #x
#define OPENIN_CHECK_STRINGIFY(x) OPENIN_CHECK_STRINGIFY_VALUE(x)

const char *openin_check_build_commit(void) {
#ifdef OPENIN_CHECK_COMMIT
    return OPENIN_CHECK_STRINGIFY(OPENIN_CHECK_COMMIT);
#else
    return 0;
#endif
}
