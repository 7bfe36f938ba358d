import Hummingbird
import NIOCore

/// Answers and the headers that go with them.
enum Responses {
    /// JSON bytes as an answer, with the resource's version as its ETag when it has one.
    static func json(_ body: ByteBuffer, status: HTTPResponse.Status = .ok, version: Int? = nil) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let version { headers[.eTag] = ETag.tag(version) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// A changing resource's JSON, with its version as the ETag.
    static func json(_ resource: ReadModel.Versioned) -> Response {
        json(resource.json, version: resource.version)
    }

    /// `{"error": message}`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json((try? JSONBody.encode(["error": message])) ?? ByteBuffer(string: "{}"), status: status)
    }
}

/// Versions as entity tags: version 7 is `"7"`.
enum ETag {
    static func tag(_ version: Int) -> String { "\"\(version)\"" }

    /// The versions an `If-Match` header accepts; nil when there is none or it is `*`.
    /// Weak or unreadable tags match no version (RFC 9110 compares If-Match strongly).
    static func acceptedVersions(_ request: Request) -> Set<Int>? {
        let values = request.headers[values: .ifMatch]
        guard !values.isEmpty else { return nil }
        var versions = Set<Int>()
        for tag in values.flatMap({ $0.split(separator: ",") }) {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            if trimmed == "*" { return nil }
            if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\""),
                let version = Int(trimmed.dropFirst().dropLast())
            {
                versions.insert(version)
            }
        }
        return versions
    }
}
