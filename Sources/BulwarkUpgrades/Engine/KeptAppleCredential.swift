import Foundation

/// A Sign in with Apple credential and the nonce of its request, as text
/// for the staged change (sealed in the vault with its entry, never
/// elsewhere): what the service needs to finish the link after a crash.
struct KeptAppleCredential {
    let credential: AppleIDCredential
    let nonce: String

    init(_ credential: AppleIDCredential, nonce: String) {
        self.credential = credential
        self.nonce = nonce
    }

    init?(text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let user = object["user"] as? String, let email = object["email"] as? String, let relay = object["private_relay"] as? Bool,
              let state = object["state"] as? String, let token = object["identity_token"] as? String,
              let code = object["authorization_code"] as? String, let nonce = object["nonce"] as? String else { return nil }
        credential = AppleIDCredential(user: user, email: email, isPrivateRelay: relay, fullName: nil, state: state,
                                       identityToken: token, authorizationCode: code)
        self.nonce = nonce
    }

    var text: String {
        let object: [String: Any] = ["user": credential.user, "email": credential.email, "private_relay": credential.isPrivateRelay,
                                     "state": credential.state, "identity_token": credential.identityToken,
                                     "authorization_code": credential.authorizationCode, "nonce": nonce]
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }
}
