"""A real SMTP server (aiosmtpd) for the e-mail tests.

Usage: python smtp_server.py PORT MAILBOX_FILE [USER PASSWORD]

Accepts mail on 127.0.0.1:PORT and appends each message to MAILBOX_FILE as one JSON line
({"from", "to", "data", and the decoded "subject" and "body"). With USER and PASSWORD it requires SMTP AUTH (PLAIN or LOGIN, allowed
without TLS on this loopback test server). Prints "ready" once it listens; runs until killed.
"""

import email
import email.policy
import json
import warnings
import signal
import sys
import threading

warnings.filterwarnings("ignore")

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class SaveToFile:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        line = json.dumps(
            {
                "from": envelope.mail_from,
                "to": envelope.rcpt_tos,
                "data": envelope.content.decode("utf-8", "replace"),
                # As a mail client shows it: transfer encoding undone.
                "subject": str(message["subject"]),
                "body": message.get_content(),
            }
        )
        with self.lock, open(self.path, "a", encoding="utf-8") as mailbox:
            mailbox.write(line + "\n")
        return "250 Message accepted for delivery"


def authenticator(user, password):
    def check(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == user
            and auth_data.password.decode() == password
        )
        # handled=False: aiosmtpd answers 535 itself.
        return AuthResult(success=ok, handled=False)

    return check


def main():
    port = int(sys.argv[1])
    mailbox = sys.argv[2]
    options = {}
    if len(sys.argv) >= 5:
        options = {
            "authenticator": authenticator(sys.argv[3], sys.argv[4]),
            "auth_required": True,
            "auth_require_tls": False,
        }
    controller = Controller(
        SaveToFile(mailbox), hostname="127.0.0.1", port=port, **options
    )
    controller.start()
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
