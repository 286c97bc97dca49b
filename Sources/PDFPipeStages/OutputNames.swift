import PDFPipeCore

/// Names of the files stages write in the output folder. They are made from the document's path
/// relative to the input root and cannot point outside the output folder.
enum OutputNames {
    /// A stage's `folder` option, checked: a folder inside the output folder.
    static func folder(_ option: String) throws(PipelineError) -> String {
        let f = Paths.standardize("/" + option)
        guard f != "/" else {
            throw PipelineError(file: nil, path: "folder", message: "expected a folder name inside the output folder")
        }
        return String(f.dropFirst())
    }

    /// `folder/relative/path/of/the/document.ext`, relative to the output folder.
    static func file(for job: Job, folder: String, extension ext: String) -> String {
        let stem = job.outputStem
        return String(Paths.standardize("/" + folder + "/" + stem + "." + ext).dropFirst())
    }
}
