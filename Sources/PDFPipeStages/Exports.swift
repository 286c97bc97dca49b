// The web check is a module of its own (PDFPipeWeb); its options are part of validate-links'
// options, so a program that imports PDFPipeStages names them without a second import.
@_exported import PDFPipeWeb
