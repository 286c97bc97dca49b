import Foundation
import PDFPipeCore
import PDFReader

/// Where each link annotation sits in the structure tree: the element holding the `OBJR` that
/// names it, read with a bounded walk (a visited set stops cycles), and the `/ParentTree`'s
/// entries for annotations.
struct StructureIndex {
    struct Holder {
        /// A number per element, for grouping.
        var id: Int
        var element: ObjectRef?
        /// The element's type after the role map; `rawType` as written.
        var type: String
        var rawType: String
        var alt: String?
        var actualText: String?
    }

    private(set) var holders: [ObjectRef: Holder] = [:]
    private var parentTree: [Int: ObjectRef?] = [:]

    /// Nil when the walk passes `limit` nodes.
    init?(root: PDFObject, limit: Int) {
        guard let tree = root["StructTreeRoot"], tree.isDictionary else { return }
        let roles = Self.roleMap(tree["RoleMap"])
        var visited = Set<ObjectRef>()
        var stack: [(node: PDFObject, holder: Holder?)] = []
        if let k = tree["K"] { stack.append((k, nil)) }
        var nodes = 0
        var elements = 0
        while let (node, parent) = stack.popLast() {
            nodes += 1
            guard nodes <= limit else { return nil }
            if let r = node.objectRef {
                guard visited.insert(r).inserted else { continue }
            }
            if node.isArray {
                for item in node.items.reversed() { stack.append((item, parent)) }
                continue
            }
            guard node.isDictionary else { continue }  // a marked-content id
            if let obj = node["Obj"], node["S"] == nil || node["Type"]?.name == "OBJR" {
                if let r = obj.objectRef, let parent, holders[r] == nil { holders[r] = parent }
                continue
            }
            guard let s = node["S"]?.name else { continue }  // a marked-content reference
            elements += 1
            let holder = Holder(
                id: elements, element: node.objectRef, type: Self.standardType(s, roles), rawType: s,
                alt: node["Alt"]?.text.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
                actualText: node["ActualText"]?.text)
            if let k = node["K"] { stack.append((k, holder)) }
        }
        guard readParentTree(tree["ParentTree"], limit: limit) else { return nil }
    }

    /// The element the `/ParentTree` gives for `key`: nil when the key is absent, `.some(nil)`
    /// when its value is not an indirect element.
    func parent(_ key: Int) -> ObjectRef?? { parentTree[key] }

    /// The number tree's entries (`/Nums` pairs, through `/Kids`), each value's reference.
    private mutating func readParentTree(_ node: PDFObject?, limit: Int) -> Bool {
        guard let node else { return true }
        var visited = Set<ObjectRef>()
        var stack = [(node, 0)]
        var entries = 0
        while let (n, depth) = stack.popLast() {
            guard depth < 64 else { continue }
            if let r = n.objectRef, !visited.insert(r).inserted { continue }
            if let nums = n["Nums"], nums.isArray {
                let items = nums.items
                entries += items.count / 2
                guard entries <= limit else { return false }
                var i = 0
                while i + 1 < items.count {
                    if let key = items[i].int, parentTree[key] == nil {
                        let v = items[i + 1]
                        parentTree[key] = v.isDictionary ? .some(v.objectRef) : .some(nil)
                    }
                    i += 2
                }
            }
            for kid in n["Kids"]?.items ?? [] { stack.append((kid, depth + 1)) }
        }
        return true
    }

    static func roleMap(_ map: PDFObject?) -> [String: String] {
        guard let d = map, d.isDictionary else { return [:] }
        var out: [String: String] = [:]
        for k in d.keys { if let v = d[k]?.name { out[k] = v } }
        return out
    }

    /// `type` through the role map (a few hops, a cycle stops it).
    static func standardType(_ type: String, _ roles: [String: String]) -> String {
        var t = type
        var hops = 0
        while let next = roles[t], next != t, hops < 16 {
            t = next
            hops += 1
        }
        return t
    }
}
