import XCTest
final class PlaceholderPDFPipeCLITests: XCTestCase { func testNothing() {} }
