import Testing

/// Every test of the `AppConnect` double: one process-wide double (the SDK's
/// singleton), so they run one at a time.
@Suite(.serialized)
struct AppConnectDoubleTests {}
