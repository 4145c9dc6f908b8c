import CQRDecode
import Foundation

/// The text of the QR code in a PNG or JPEG image (a service's "scan this
/// with your authenticator" picture), read with libpng/libjpeg and zbar.
public enum QRCodeImage {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable, notAnImage, damaged, tooLarge, noCode, tooLong, several

        public var description: String {
            switch self {
            case .unreadable: "the file cannot be read"
            case .notAnImage: "not a PNG or JPEG image"
            case .damaged: "the image is damaged"
            case .tooLarge: "the image is larger than \(BW_QR_MAX_SIDE) pixels a side"
            case .noCode: "no QR code was found in the image"
            case .tooLong: "the QR code holds more than 4 KiB of text, more than any otpauth URL"
            case .several: "the image holds more than one QR code; crop it to the one to use"
            }
        }
    }

    public static func text(atPath path: String) throws(Failure) -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let status = bw_qr_decode_file(path, &buffer, buffer.count)
        switch Int(status) {
        case Int(BW_QR_OK): return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        case Int(BW_QR_UNREADABLE): throw .unreadable
        case Int(BW_QR_NOT_AN_IMAGE): throw .notAnImage
        case Int(BW_QR_DAMAGED): throw .damaged
        case Int(BW_QR_TOO_LARGE): throw .tooLarge
        case Int(BW_QR_TOO_LONG): throw .tooLong
        case Int(BW_QR_SEVERAL): throw .several
        default: throw .noCode
        }
    }
}
