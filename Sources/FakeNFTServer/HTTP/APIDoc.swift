/// What an endpoint says of itself in the served OpenAPI document (``OpenAPIDocument``): declared
/// with the endpoint (``Route``, and the routes outside the table), so that the document
/// describes what the router answers and nothing else.
struct APIDoc: Sendable {
    var summary: String
    /// Its group in the document (`NFT`, `Accounts`, …).
    var tag: String
    /// Its query parameters.
    var query: [Field] = []
    /// What its body carries.
    var body: Body?
    /// Its answer when it succeeds.
    var answer: Answer
    /// The error statuses it answers, each with an ``APISchema/error`` body.
    var errors: [Int] = []

    /// A named value of a query or a form.
    struct Field: Sendable {
        let name: String
        let schema: APISchema
        var about = ""
    }

    enum Body: Sendable {
        /// `application/x-www-form-urlencoded` fields.
        case form([Field])
        case json(APISchema)
    }

    enum Answer: Sendable {
        case json(status: Int, APISchema)
        /// 204 and no body.
        case noContent
        /// `text/event-stream`, for as long as the server runs.
        case events
        case png
        /// `text/plain` (the Prometheus text format).
        case text
    }
}

/// A JSON Schema (2020-12, as OpenAPI 3.1 takes it) of what the API sends and takes.
indirect enum APISchema: Sendable {
    case string, integer, number, boolean
    /// A string or nothing (`null`).
    case optionalString
    /// A component of the document (`#/components/schemas/NFT`).
    case ref(String)
    case array(APISchema)
    /// Its properties, and those always present.
    case object([(String, APISchema)], required: [String] = [])

    /// The schema as JSON.
    var json: [String: any Sendable] {
        switch self {
        case .string: ["type": "string"]
        case .integer: ["type": "integer"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .optionalString: ["type": ["string", "null"]]
        case .ref(let name): ["$ref": "#/components/schemas/" + name]
        case .array(let items): ["type": "array", "items": items.json]
        case .object(let properties, let required):
            [
                "type": "object",
                "properties": Dictionary(uniqueKeysWithValues: properties.map { ($0.0, $0.1.json) }),
            ].merging(required.isEmpty ? [:] : ["required": required]) { $1 }
        }
    }

    /// An error's body: `{"error": "why"}`.
    static let error = APISchema.ref("Error")
    /// A list of ids.
    static let ids = APISchema.array(.string)
}
