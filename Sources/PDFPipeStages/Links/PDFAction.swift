import PDFReader

/// Where a GoTo or GoToR action (or a `/Dest`) points.
package enum DestinationReference: Sendable, Equatable {
    case explicit(Destination)
    case named(DestinationKey)
    /// Neither an array, a string nor a name.
    case invalid(String)

    init(_ o: PDFObject, pages: PageIndex) {
        if o.isArray {
            self = .explicit(Destination(array: o, pages: pages))
        } else if let b = o.bytes {
            self = .named(.string(b))
        } else if let n = o.name {
            self = .named(.name(n))
        } else {
            self = .invalid("the destination is \(Destination.typeName(o)), not an array, string or name")
        }
    }
}

/// A file specification (PDF 32000-1 §7.11): a string, or a dictionary with `/UF`, `/F`, or the
/// old platform keys.
package struct FileSpecification: Sendable, Equatable {
    package var path: String?
    /// `/FS /URL`: the path is a URL.
    package var isURL = false

    init(_ o: PDFObject?) {
        guard let o else { return }
        if let t = o.text {
            path = t
        } else if o.isDictionary {
            isURL = o["FS"]?.name == "URL"
            for key in ["UF", "F", "Unix", "DOS", "Mac"] {
                if let t = o[key]?.text, !t.isEmpty {
                    path = t
                    break
                }
            }
        }
    }
}

/// A PDF action, parsed into what the validator needs.
package indirect enum PDFAction: Sendable, Equatable {
    case goTo(DestinationReference?)
    case goToRemote(file: FileSpecification, destination: DestinationReference?)
    /// The URI as written (nil when the action has no /URI).
    case uri(String?)
    case launch(FileSpecification)
    case named(String?)
    case javaScript
    case submitForm
    case resetForm
    case hide
    /// Another type (`Movie`, `SetOCGState`, …), or nil when /S is missing.
    case other(String?)

    /// The `kind` reported in the link inventory.
    package var kind: LinkKind {
        switch self {
        case .goTo: .goto
        case .goToRemote: .gotor
        case .uri: .uri
        case .launch: .launch
        case .named: .named
        case .javaScript: .javascript
        default: .other
        }
    }

    package var typeName: String {
        switch self {
        case .goTo: "GoTo"
        case .goToRemote: "GoToR"
        case .uri: "URI"
        case .launch: "Launch"
        case .named: "Named"
        case .javaScript: "JavaScript"
        case .submitForm: "SubmitForm"
        case .resetForm: "ResetForm"
        case .hide: "Hide"
        case .other(let s): s ?? "(no /S)"
        }
    }

    init(_ d: PDFObject, pages: PageIndex) {
        let type = d["S"]?.name
        switch type {
        case "GoTo": self = .goTo(d["D"].map { DestinationReference($0, pages: pages) })
        case "GoToR":
            self = .goToRemote(
                file: FileSpecification(d["F"]), destination: d["D"].map { DestinationReference($0, pages: pages) })
        case "URI": self = .uri(d["URI"]?.bytes.map { String(decoding: $0, as: UTF8.self) })
        case "Launch":
            var spec = FileSpecification(d["F"])
            if spec.path == nil, let win = d["Win"], let f = win["F"]?.text { spec.path = f }
            self = .launch(spec)
        case "Named": self = .named(d["N"]?.name)
        case "JavaScript": self = .javaScript
        case "SubmitForm": self = .submitForm
        case "ResetForm": self = .resetForm
        case "Hide": self = .hide
        default: self = .other(type)
        }
    }

    /// What walking a `/Next` chain found: its actions, depth first, each once; whether it loops
    /// (an action that leads back to itself); and whether it stopped at `limit` actions (then the
    /// rest was not read: a limit, not a loop).
    struct Chain {
        var actions: [PDFAction] = []
        var looped = false
        var stoppedAtLimit = false
    }

    /// An action and the actions of its `/Next` chain (a dictionary or an array), depth first,
    /// each once. Iterative, so a chain of any length needs no depth limit: a cycle is only an
    /// action reached again from itself (on the current path); an action two branches share is
    /// read once and is no cycle. Past `limit` actions the walk stops and says so.
    static func chain(_ first: PDFObject, pages: PageIndex, limit: Int = 10_000) -> Chain {
        var out = Chain()
        var seen = Set<Int>()
        var onPath = Set<Int>()
        enum Step {
            case enter(PDFObject)
            case leave(Int)
        }
        var stack: [Step] = [.enter(first)]
        while let step = stack.popLast() {
            switch step {
            case .leave(let id):
                onPath.remove(id)
            case .enter(let a):
                let id = a.objectID?.number
                if let id {
                    if onPath.contains(id) {
                        out.looped = true
                        continue
                    }
                    if !seen.insert(id).inserted { continue }
                }
                guard a.isDictionary else { continue }
                guard out.actions.count < limit else {
                    out.stoppedAtLimit = true
                    return out
                }
                out.actions.append(PDFAction(a, pages: pages))
                if let id {
                    onPath.insert(id)
                    stack.append(.leave(id))
                }
                guard let next = a["Next"] else { continue }
                if next.isArray {
                    for n in next.items.reversed() { stack.append(.enter(n)) }
                } else {
                    stack.append(.enter(next))
                }
            }
        }
        return out
    }
}
