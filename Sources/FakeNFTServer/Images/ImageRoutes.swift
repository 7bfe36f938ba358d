import Foundation
import Hummingbird
import NIOCore

/// `GET` and `HEAD /images/<path>`: the offline image set, as PNG, with a strong `ETag`, a year
/// of `Cache-Control` and `304` for a matching `If-None-Match`.
struct ImageRoutes: Sendable {
    let images: ImageSet

    /// Adds its routes to `router`; what they say of themselves.
    func add(to router: Router<ServerContext>) -> [DocumentedRoute] {
        router.get("images/**") { request, _ in try answer(request, body: true) }
        router.head("images/**") { request, _ in try answer(request, body: false) }
        let doc = APIDoc(
            summary: "A picture of the offline image set, as PNG (304 for a matching If-None-Match).",
            tag: "Pictures", answer: .png, errors: [404])
        return [DocumentedRoute("GET", "images/**", doc), DocumentedRoute("HEAD", "images/**", doc)]
    }

    private func answer(_ request: Request, body: Bool) throws -> Response {
        let raw = String(request.uri.path.dropFirst("/images/".count))
        guard let path = raw.removingPercentEncoding, let image = images.image(for: path) else {
            throw ServerError.notFound("image '\(raw)'")
        }
        var headers: HTTPFields = [.eTag: image.entityTag, .cacheControl: "public, max-age=31536000, immutable"]
        if request.headers[values: .ifNoneMatch].flatMap({ $0.split(separator: ",") })
            .contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == image.entityTag
                    || $0.trimmingCharacters(in: .whitespaces) == "*"
            })
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "image/png"
        headers[.contentLength] = String(image.png.readableBytes)
        return Response(
            status: .ok, headers: headers, body: body ? ResponseBody(byteBuffer: image.png) : ResponseBody())
    }
}
