internal import CPoppler

/// The data pointers of a GList, in order (poppler returns its mappings as GLists).
func glistItems(_ list: UnsafeMutablePointer<GList>?) -> [UnsafeMutableRawPointer] {
    var out: [UnsafeMutableRawPointer] = []
    var node = list
    while let n = node {
        if let data = n.pointee.data { out.append(data) }
        node = n.pointee.next
    }
    return out
}
