import XCTest
final class PlaceholderPDFPipeCoreTests: XCTestCase { func testNothing() {} }
