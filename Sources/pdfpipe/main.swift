import Foundation
import PDFPipeCLI

let code = CLI(console: .standard()).run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
