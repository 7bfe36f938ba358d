import ShopCommands

/// The shop's API as this server's routes answer it in its process (``RouterCall``): for a
/// command over SSH as its key's account, or for one on the embedded server's data.
struct RoutedShopAPI: ShopAPI {
    let router: RouterCall
    /// Whose account the commands act for; nil: as the request's token says (none: the shared profile).
    let owner: String?
    /// The server's address as the answers' links name it.
    var authority = "localhost"

    func send(_ request: ShopRequest) async throws(CommandFailure) -> ShopAnswer {
        do {
            let response = try await router.response(
                request.method, "/api/v1/" + request.path, headers: request.headers.map { ($0.name, $0.value) },
                body: request.body, actingOwner: owner, authority: authority)
            return ShopAnswer(
                status: response.status.code, body: try await RouterCall.body(of: response),
                entityTag: response.headers[.eTag])
        } catch {
            throw .failed("the shop could not answer: \(error)")
        }
    }
}
