import XCTest
final class PlaceholderPDFPipeStagesTests: XCTestCase { func testNothing() {} }
