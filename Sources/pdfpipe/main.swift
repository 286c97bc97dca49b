import Foundation
import PDFPipeCLI
import PDFPipeStages
import SystemIO

// The qpdf helper must start no thread before its job (see QPDFJob.Helper): it goes first.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "__qpdf-job" { exit(QPDFHelper.main()) }
QPDFHelper.enable(
    mode: Environment["PDFPIPE_QPDF_PROCESS"],
    executable: Environment["PDFPIPE_QPDF_HELPER"])

CLI.isMainProgram = true
let console = Console.standard()
Interruption.shared.install(console: console)
let code = CLI(console: console).run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
