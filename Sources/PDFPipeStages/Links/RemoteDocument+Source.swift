import PDFPipeCore
import PDFPipeWeb
import PDFReader

extension RemoteDocument {
    /// The facts of a document already opened (no C library here: the link fuzzer builds this file).
    package init(source: any ObjectSource) {
        let pageObjects = PageTree.pages(source)
        let pages = PageIndex(pageObjects)
        let table = DestinationTable(root: PDFObject.root(of: source), pages: pages)
        func page(_ n: NamedDestination) -> Int? {
            switch n.destination?.target {
            case .page(let i)?: i
            case .pageNumber(let i)? where i >= 0 && i < pages.count: i
            default: nil
            }
        }
        self.init(pageCount: pages.count, tree: table.tree.mapValues(page), catalog: table.catalog.mapValues(page))
    }
}
