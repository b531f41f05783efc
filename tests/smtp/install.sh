#!/usr/bin/env bash
# What the mail tests need on the machine: Debian's python3-aiosmtpd (the
# SMTP server the tests start on loopback, run by Debian's own
# /usr/bin/python3), openssl (the server's self-signed certificate) and
# poppler-utils (pdftotext reads the reminders' PDFs). Installed with
# apt-get when missing; quick when all are there. .ci/run and the
# README's test command run it before `cargo test`.
set -euo pipefail

missing=()
/usr/bin/python3 -c 'import aiosmtpd' >/dev/null 2>&1 || missing+=(python3-aiosmtpd)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing Debian's ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi
/usr/bin/python3 -c 'import aiosmtpd; print("aiosmtpd", aiosmtpd.__version__)'
