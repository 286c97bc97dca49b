import CCurl
import Foundation
import SystemIO

/// `s3://bucket/prefix`: where a batch's inputs or outputs live in object storage.
package struct S3Location: Sendable, Equatable, CustomStringConvertible {
    package var bucket: String
    /// The key prefix, without a leading slash ("" for the whole bucket). A prefix that names a
    /// folder ends with `/` once normalized by `folder`.
    package var prefix: String

    package init(bucket: String, prefix: String) {
        self.bucket = bucket
        self.prefix = prefix
    }

    /// Parses `s3://bucket[/prefix]`; nil when `text` is not an `s3://` URL, a `PipelineError`-worthy
    /// message (as `S3Error`) when it is one without a valid bucket.
    package static func parse(_ text: String) throws(S3Error) -> S3Location? {
        guard text.lowercased().hasPrefix("s3://") else { return nil }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        let prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        // S3's rules for new buckets (3–63 of a-z 0-9 . -), loosened to what S3-compatible stores accept.
        let valid =
            (1...255).contains(bucket.count)
            && bucket.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        guard valid else {
            throw S3Error(
                location: text, status: nil, code: "InvalidBucketName",
                message: "'\(bucket)' is not a bucket name (s3://BUCKET/PREFIX)")
        }
        return S3Location(bucket: bucket, prefix: prefix)
    }

    package static func isS3(_ text: String) -> Bool { text.lowercased().hasPrefix("s3://") }

    /// The prefix as a folder: "" or ending with `/`.
    package var folder: String { prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/" }

    /// `s3://bucket/key`.
    package func url(_ key: String) -> String { "s3://\(bucket)/\(key)" }

    package var description: String { url(prefix) }
}

/// An object storage request that failed, naming the bucket and key.
package struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// `s3://bucket/key` (or the URL as given).
    package var location: String
    package var status: Int?
    /// S3's error code (`AccessDenied`, `NoSuchKey`, `SignatureDoesNotMatch`…), or libcurl's failure.
    package var code: String
    package var message: String

    package init(location: String, status: Int?, code: String, message: String) {
        self.location = location
        self.status = status
        self.code = code
        self.message = message
    }

    package var description: String {
        let hint: String
        switch status {
        case 403?:
            hint =
                " (check the credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE and ~/.aws/credentials; and that they may use this bucket)"
        case 404? where code == "NoSuchBucket": hint = " (no such bucket at this endpoint)"
        default: hint = ""
        }
        let head = status.map { "\($0) \(code)" } ?? code
        return "\(location): \(head): \(message)\(hint)"
    }
}

/// The credentials, region and endpoint of a store, found where AWS's own tools look, in their
/// order: the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), then
/// the profile (`AWS_PROFILE`, else `default`) of the shared credentials file
/// (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`) and of the config file
/// (`AWS_CONFIG_FILE`, else `~/.aws/config`, section `[profile NAME]`). The region from
/// `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`; the endpoint from
/// `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's `endpoint_url` (path-style addressing:
/// `ENDPOINT/bucket/key`, what MinIO, Ceph and moto serve), else AWS's regional endpoint
/// (virtual-hosted: `https://bucket.s3.REGION.amazonaws.com/key`).
package struct S3Settings: Sendable, Equatable {
    package var accessKey: String
    package var secretKey: String
    package var sessionToken: String?
    package var region: String
    /// A custom endpoint (`http://127.0.0.1:9000`), without a trailing slash; nil for AWS's.
    package var endpoint: String?
    /// Where the credentials came from, for messages.
    package var source: String

    package init(
        accessKey: String, secretKey: String, sessionToken: String? = nil, region: String, endpoint: String?,
        source: String
    ) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
        self.region = region
        self.endpoint = endpoint
        self.source = source
    }

    package static func fromEnvironment(
        _ env: [String: String] = Environment.all, home: String? = nil
    ) throws(S3Error) -> S3Settings {
        func get(_ k: String) -> String? { env[k].flatMap { $0.isEmpty ? nil : $0 } }
        let home = home ?? get("HOME") ?? NSHomeDirectory()
        let profile = get("AWS_PROFILE") ?? "default"
        let credentialsFile = get("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials"
        let configFile = get("AWS_CONFIG_FILE") ?? home + "/.aws/config"
        let credentials = INISections.read(credentialsFile)[profile] ?? [:]
        let config = INISections.read(configFile)[profile == "default" ? "default" : "profile " + profile] ?? [:]
        var key = get("AWS_ACCESS_KEY_ID")
        var secret = get("AWS_SECRET_ACCESS_KEY")
        var token = get("AWS_SESSION_TOKEN")
        var source = "the environment (AWS_ACCESS_KEY_ID)"
        if key == nil || secret == nil {
            let fromFile = credentials["aws_access_key_id"] != nil ? credentials : config
            key = fromFile["aws_access_key_id"]
            secret = fromFile["aws_secret_access_key"]
            token = fromFile["aws_session_token"]
            source = "profile '\(profile)' of \(fromFile == credentials ? credentialsFile : configFile)"
        }
        guard let key, let secret else {
            throw S3Error(
                location: "s3://", status: nil, code: "NoCredentials",
                message:
                    "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with ~/.aws/credentials (looked in the environment, \(credentialsFile) and \(configFile) for profile '\(profile)')"
            )
        }
        let region = get("AWS_REGION") ?? get("AWS_DEFAULT_REGION") ?? config["region"] ?? "us-east-1"
        var endpoint = get("AWS_ENDPOINT_URL_S3") ?? get("AWS_ENDPOINT_URL") ?? config["endpoint_url"]
        while endpoint?.hasSuffix("/") == true { endpoint?.removeLast() }
        return S3Settings(
            accessKey: key, secretKey: secret, sessionToken: token, region: region, endpoint: endpoint, source: source)
    }
}

/// The sections of an INI file as AWS's files write them (`[name]`, `key = value`, `#`/`;` comments).
enum INISections {
    static func read(_ path: String) -> [String: [String: String]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        return parse(text)
    }

    static func parse(_ text: String) -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        var section: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let section, let eq = line.firstIndex(of: "=") else { continue }
            let k = line[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            let v = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            out[section, default: [:]][k] = v
        }
        return out
    }
}

/// An object of a listing.
package struct S3Object: Sendable, Equatable {
    package var key: String
    package var size: Int
    /// Without its quotes.
    package var etag: String
    /// Nanoseconds since 1970 (the listing's `LastModified`).
    package var lastModified: Int

    package init(key: String, size: Int, etag: String, lastModified: Int) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
    }
}
