import Foundation
import PDFPipeCLI

let console = Console.standard()
Interruption.shared.install(console: console)
let code = CLI(console: console).run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
