import Foundation
import HTTPServer

extension SimulatorCore {
    // MARK: Routing

    func route(_ context: RESTContext) throws -> HTTPServerResponse {
        let apiPath = String(context.request.path.dropFirst("/_api".count))
        let segments = Segment.split(apiPath)
        let method = effectiveMethod(context.request)
        guard let first = segments.first else {
            throw RESTError.invalidQuery("The requested resource does not exist.")
        }
        switch first.lower {
        case "contextinfo":
            guard context.request.method == "POST" else {
                throw RESTError(
                    status: 405, code: "-1, System.InvalidOperationException",
                    message:
                        "The HTTP method 'GET' cannot be used to access the resource 'GetContextWebInformation'. The operation type of the resource is specified as 'Default'. Please use correct HTTP method to invoke the resource."
                )
            }
            return jsonResponse(contextInfo(context), context)
        case "site":
            return jsonResponse(
                entity(
                    type: "SP.Site", path: "Site", set: "SP.Site",
                    props: [
                        ("Id", .string(siteId)), ("ServerRelativeUrl", .string("/")), ("Url", .string(context.site)),
                    ], deferred: ["RootWeb"], context: context, top: true), context)
        case "web":
            return try routeWeb(Array(segments.dropFirst()), method: method, context: context)
        default:
            throw RESTError(
                status: 404, code: "-1, Microsoft.SharePoint.Client.InvalidClientQueryException",
                message: "The expression \"\(apiPath.dropFirst())\" is not valid.")
        }
    }
}
