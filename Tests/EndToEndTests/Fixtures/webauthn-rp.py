#!/usr/bin/env python3
"""An independent relying party for the passkey tests: Duo Labs' py_webauthn
(PyPI `webauthn`), the library many Python servers use, run over what
`bulwark passkey` prints.

  webauthn-rp.py register-options RPID USERNAME OUT.json STATE.json
  webauthn-rp.py register-verify ORIGIN STATE.json RESPONSE.json   -> prints credential id and public key
  webauthn-rp.py auth-options RPID STATE.json OUT.json [CREDENTIAL_ID]
  webauthn-rp.py auth-verify ORIGIN STATE.json RESPONSE.json
Exit 0 when the library accepts, 1 with its reason when it refuses.
"""
import json
import sys

import webauthn
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.structs import (AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor, ResidentKeyRequirement,
                                      UserVerificationRequirement)


def main(argv):
    command = argv[1]
    if command == "register-options":
        rp_id, user, out, state = argv[2:6]
        options = webauthn.generate_registration_options(
            rp_id=rp_id, rp_name="Test RP", user_name=user, user_display_name=user.title(),
            authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED,
                                                                   user_verification=UserVerificationRequirement.REQUIRED))
        open(out, "w").write(webauthn.options_to_json(options))
        json.dump({"challenge": bytes_to_base64url(options.challenge), "rp_id": rp_id}, open(state, "w"))
    elif command == "register-verify":
        origin, state, response = argv[2:5]
        saved = json.load(open(state))
        verified = webauthn.verify_registration_response(
            credential=open(response).read(), expected_challenge=base64url_to_bytes(saved["challenge"]),
            expected_origin=origin, expected_rp_id=saved["rp_id"], require_user_verification=True)
        saved["credential_id"] = bytes_to_base64url(verified.credential_id)
        saved["public_key"] = bytes_to_base64url(verified.credential_public_key)
        saved["sign_count"] = verified.sign_count
        json.dump(saved, open(state, "w"))
        print(saved["credential_id"], verified.fmt, verified.credential_device_type, verified.credential_backed_up)
    elif command == "auth-options":
        rp_id, state, out = argv[2:5]
        allow = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(argv[5]))] if len(argv) > 5 else []
        options = webauthn.generate_authentication_options(rp_id=rp_id, allow_credentials=allow,
                                                           user_verification=UserVerificationRequirement.REQUIRED)
        open(out, "w").write(webauthn.options_to_json(options))
        saved = json.load(open(state))
        saved["challenge"] = bytes_to_base64url(options.challenge)
        json.dump(saved, open(state, "w"))
    elif command == "auth-verify":
        origin, state, response = argv[2:5]
        saved = json.load(open(state))
        verified = webauthn.verify_authentication_response(
            credential=open(response).read(), expected_challenge=base64url_to_bytes(saved["challenge"]),
            expected_rp_id=saved["rp_id"], expected_origin=origin,
            credential_public_key=base64url_to_bytes(saved["public_key"]), credential_current_sign_count=saved["sign_count"],
            require_user_verification=True)
        print(bytes_to_base64url(verified.credential_id), verified.new_sign_count, verified.user_verified)
    else:
        raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    try:
        main(sys.argv)
    except Exception as error:  # the library's refusal, said as it says it
        print(f"refused: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
