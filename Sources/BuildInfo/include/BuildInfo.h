#ifndef OPENIN_CHECK_BUILD_INFO_H
#define OPENIN_CHECK_BUILD_INFO_H

/// The commit the binary was built from, as given at build time with
/// `-Xcc -DOPENIN_CHECK_COMMIT=<hex>`, or NULL when none was given.
const char *openin_check_build_commit(void);

#endif
