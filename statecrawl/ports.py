"""The ports Chromium refuses to load over http(s) (``ERR_UNSAFE_PORT``): those of other
protocols a page could be made to talk to (the Fetch Standard's "bad ports", which Chromium
follows). A start URL on one is refused before a browser starts, with the reason."""

from __future__ import annotations

UNSAFE_PORTS = {
    1: "tcpmux", 7: "echo", 9: "discard", 11: "systat", 13: "daytime", 15: "netstat",
    17: "qotd", 19: "chargen", 20: "ftp-data", 21: "ftp", 22: "ssh", 23: "telnet", 25: "smtp",
    37: "time", 42: "name", 43: "nicname", 53: "domain", 69: "tftp", 77: "priv-rjs",
    79: "finger", 87: "ttylink", 95: "supdup", 101: "hostname", 102: "iso-tsap",
    103: "gppitnp", 104: "acr-nema", 109: "pop2", 110: "pop3", 111: "sunrpc", 113: "auth",
    115: "sftp", 117: "uucp-path", 119: "nntp", 123: "ntp", 135: "epmap", 137: "netbios-ns",
    139: "netbios-ssn", 143: "imap", 161: "snmp", 179: "bgp", 389: "ldap", 427: "svrloc",
    465: "smtps", 512: "exec", 513: "login", 514: "shell", 515: "printer", 526: "tempo",
    530: "courier", 531: "chat", 532: "netnews", 540: "uucp", 548: "afp", 554: "rtsp",
    556: "remotefs", 563: "nntps", 587: "submission", 601: "syslog-conn", 636: "ldaps",
    989: "ftps-data", 990: "ftps", 993: "imaps", 995: "pop3s", 1719: "h323gatestat",
    1720: "h323hostcall", 1723: "pptp", 2049: "nfs", 3659: "apple-sasl", 4045: "npp",
    4190: "sieve", 5060: "sip", 5061: "sips", 6000: "x11", 6566: "sane-port", 6665: "irc",
    6666: "irc", 6667: "irc", 6668: "irc", 6669: "irc", 6679: "osaut", 6697: "ircs",
    10080: "amanda",
}


def unsafe(port: int | None) -> str | None:
    """Why Chromium will not load a page on ``port`` (``None`` when it will)."""
    service = UNSAFE_PORTS.get(port) if port is not None else None
    if service is None:
        return None
    return (f"port {port} is {service}'s, one Chromium refuses to load (ERR_UNSAFE_PORT): "
            "serve the application on another port")
