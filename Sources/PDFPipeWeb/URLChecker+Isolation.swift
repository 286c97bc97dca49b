import PDFPipeCore

/// A worker process's questions to the parent's checker and the answers, as JSON (the isolation
/// channel carries them without knowing what they are).
extension URLChecker {
    /// A worker's question: the keys it needs.
    package static func request(_ keys: [Key], within seconds: Double = .infinity) -> JSONValue {
        seconds.isFinite ? ["keys": JSONValue(encoding: keys), "within": .double(seconds)] : JSONValue(encoding: keys)
    }

    package static func keys(from json: JSONValue) -> [Key] {
        (try? (json["keys"] ?? json).decode([Key].self)) ?? []
    }

    /// The seconds a worker's question may wait (`request(_:within:)`), infinite when not said.
    package static func budget(from json: JSONValue) -> Double { json["within"]?.doubleValue ?? .infinity }

    /// The parent's answer: each key with its fetch, sorted.
    struct Answered: Codable {
        var url: String
        var download: Bool
        var page: Bool?
        var captures: Bool?
        var fetch: URLFetch
    }

    package static func answer(_ fetches: [Key: URLFetch]) -> JSONValue {
        JSONValue(
            encoding: fetches.sorted { order($0.key) < order($1.key) }
                .map { k, f in
                    Answered(
                        url: k.url, download: k.download, page: k.page ? true : nil, captures: k.captures ? true : nil,
                        fetch: f)
                })
    }

    static func order(_ k: Key) -> (String, Int) {
        (k.url, (k.download ? 1 : 0) + (k.page ? 2 : 0) + (k.captures ? 4 : 0))
    }

    package static func fetches(from json: JSONValue) -> [Key: URLFetch] {
        var out: [Key: URLFetch] = [:]
        for a in (try? json.decode([Answered].self)) ?? [] {
            out[Key(url: a.url, download: a.download, page: a.page ?? false, captures: a.captures ?? false)] = a.fetch
        }
        return out
    }
}
