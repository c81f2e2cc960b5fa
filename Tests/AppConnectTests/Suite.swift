import Testing

/// Every test of the `AppConnect` double. They run in parallel, as Swift Testing runs tests by default:
/// each harness has its own double, and the app's calls reach the harness of the test that makes them.
@Suite
struct AppConnectDoubleTests {}
