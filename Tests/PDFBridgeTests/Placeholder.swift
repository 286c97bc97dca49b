import XCTest
final class PlaceholderPDFBridgeTests: XCTestCase { func testNothing() {} }
