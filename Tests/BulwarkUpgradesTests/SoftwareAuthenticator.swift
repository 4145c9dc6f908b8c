import CFido2
import Foundation
import Synchronization
@testable import BulwarkCore

/// A software CTAP2 authenticator behind libfido2's custom transport hooks
/// (`fido_dev_set_io_functions`, `fido_dev_set_transport_functions`):
/// libfido2 runs its real open, CTAPHID_INIT and CBOR exchanges against it,
/// so bulwark's USB path is tested without hardware. It answers INIT,
/// authenticatorGetInfo, authenticatorMakeCredential (a new ES256 key,
/// `none` attestation) and authenticatorGetAssertion (CTAP 2.1 §6.1, §6.2)
/// for the credentials it holds; anything else gets CTAP1_ERR_INVALID_COMMAND.
final class SoftwareAuthenticator: @unchecked Sendable {  // reached from C callbacks, guarded by `lock`
    struct Credential { let id: [UInt8]; let rpID: String; let handle: [UInt8]; let key: P256PrivateKey }

    /// The one device the hooks talk to (a test attaches it, then detaches).
    static let attached = Mutex<SoftwareAuthenticator?>(nil)

    private let lock = NSLock()
    private var credentials: [Credential] = []
    private var reply: [UInt8] = []
    private var counter: UInt32 = 0
    /// Whether the person touches the key when it blinks.
    var touches = true
    /// The CTAP2 commands it was sent, in order (0x04 getInfo, 0x02 getAssertion).
    private(set) var commands: [UInt8] = []

    func add(_ credential: Credential) { lock.withLock { credentials.append(credential) } }

    /// A key as bulwark's provider would list it, wired to this device.
    var key: FIDO2Key {
        let io = fido_dev_io_t(open: { _ in UnsafeMutableRawPointer(bitPattern: 0x5EC) }, close: { _ in },
                               read: { _, _, _, _ in -1 }, write: { _, _, _ in -1 })
        let transport = fido_dev_transport_t(
            rx: { _, cmd, buffer, count, _ in
                guard let device = SoftwareAuthenticator.attached.withLock({ $0 }), let buffer else { return -1 }
                return device.receive(cmd, into: buffer, count)
            },
            tx: { _, cmd, bytes, count in
                guard let device = SoftwareAuthenticator.attached.withLock({ $0 }) else { return -1 }
                device.send(cmd, bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
                return 0
            })
        return FIDO2Key(name: "Software CTAP2 key", path: "software", io: io, transport: transport)
    }

    private func send(_ cmd: UInt8, _ payload: [UInt8]) {
        lock.withLock {
            switch cmd {
            case 0x06:  // CTAPHID_INIT: the nonce echoed, a channel, CTAPHID 2, version 1.0.0, capabilities CBOR | WINK
                reply = payload.prefix(8) + [0x00, 0x00, 0x00, 0x01, 2, 1, 0, 0, 0x05]
            case 0x10:  // CTAPHID_CBOR
                commands.append(payload.first ?? 0)
                reply = ctap(payload.first ?? 0, Array(payload.dropFirst()))
            default:
                reply = [0x01]
            }
        }
    }

    private func receive(_ cmd: UInt8, into buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int32 {
        lock.withLock {
            guard reply.count <= count else { return -1 }
            for (index, byte) in reply.enumerated() { buffer[index] = byte }
            return Int32(reply.count)
        }
    }

    private func ctap(_ command: UInt8, _ body: [UInt8]) -> [UInt8] {
        switch command {
        case 0x04:  // authenticatorGetInfo
            let info = CBOR.map([(.int(1), .array([.text("FIDO_2_0")])), (.int(3), .bytes(Array(repeating: 0xB0, count: 16))),
                                 (.int(4), .map([(.text("rk"), .bool(true)), (.text("up"), .bool(true)), (.text("plat"), .bool(false))])),
                                 (.int(5), .int(1200))])
            return [0x00] + info.encoded
        case 0x01:  // authenticatorMakeCredential
            guard let request = try? CBOR.decode(body).value, case .bytes(let clientDataHash)? = request[.int(1)],
                  case .text(let rpID)? = request[.int(2)]?[.text("id")], case .bytes(let handle)? = request[.int(3)]?[.text("id")],
                  case .array(let params)? = request[.int(4)] else { return [0x12] }
            guard params.contains(where: { $0[.text("alg")] == .int(-7) }) else { return [0x26] }  // CTAP2_ERR_UNSUPPORTED_ALGORITHM
            if case .array(let excluded)? = request[.int(5)],
               excluded.contains(where: { item in credentials.contains { $0.rpID == rpID && item[.text("id")] == .bytes($0.id) } }) {
                return [0x19]  // CTAP2_ERR_CREDENTIAL_EXCLUDED
            }
            guard touches else { return [0x2F] }
            guard let key = try? P256PrivateKey.generate() else { return [0x7F] }
            let id = SecureRandom.bytes(16), point = key.publicPoint
            credentials.append(Credential(id: id, rpID: rpID, handle: handle, key: key))
            let cose = CBOR.map([(.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                                 (.int(-2), .bytes(Array(point[1..<33]))), (.int(-3), .bytes(Array(point[33..<65])))])
            let authData = Digest.sha256(Array(rpID.utf8)) + [0x41, 0, 0, 0, 0] + Array(repeating: 0xB0, count: 16)
                + [UInt8(id.count >> 8), UInt8(id.count & 0xFF)] + id + cose.encoded
            _ = clientDataHash  // a `none` attestation signs nothing
            return [0x00] + CBOR.map([(.int(1), .text("none")), (.int(2), .bytes(authData)), (.int(3), .map([]))]).encoded
        case 0x02:  // authenticatorGetAssertion
            guard let request = try? CBOR.decode(body).value, case .text(let rpID)? = request[.int(1)],
                  case .bytes(let clientDataHash)? = request[.int(2)] else { return [0x12] }  // CTAP2_ERR_INVALID_CBOR
            var allowed: [[UInt8]] = []
            if case .array(let list)? = request[.int(3)] {
                for item in list { if case .bytes(let id)? = item[.text("id")] { allowed.append(id) } }
            }
            guard touches else { return [0x2F] }  // CTAP2_ERR_USER_ACTION_TIMEOUT
            guard let credential = credentials.first(where: { $0.rpID == rpID && (allowed.isEmpty || allowed.contains($0.id)) }) else {
                return [0x2E]  // CTAP2_ERR_NO_CREDENTIALS
            }
            counter += 1
            let authData = Digest.sha256(Array(rpID.utf8)) + [0x01] + [UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)]
            guard let signature = try? credential.key.sign(authData + clientDataHash) else { return [0x7F] }
            let response = CBOR.map([(.int(1), .map([(.text("id"), .bytes(credential.id)), (.text("type"), .text("public-key"))])),
                                     (.int(2), .bytes(authData)), (.int(3), .bytes(signature)),
                                     (.int(4), .map([(.text("id"), .bytes(credential.handle))]))])
            return [0x00] + response.encoded
        default:
            return [0x01]  // CTAP1_ERR_INVALID_COMMAND
        }
    }
}
