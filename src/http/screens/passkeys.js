// kontor's one script: on the pages that register or use a passkey, it asks
// the browser's WebAuthn for the credential and posts its answer with the
// form it belongs to. A form marked data-passkey="register" or "sign-in"
// first posts its fields to data-begin, which answers the options as JSON,
// then puts the browser's answer into the form's hidden `credential` field
// and submits the form as usual. Without this script (or WebAuthn), the
// rest of the pages work as before.
(function () {
    "use strict";

    function bytes(text) {
        var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
        while (base64.length % 4) {
            base64 += "=";
        }
        var raw = atob(base64);
        var out = new Uint8Array(raw.length);
        for (var i = 0; i < raw.length; i++) {
            out[i] = raw.charCodeAt(i);
        }
        return out.buffer;
    }

    function text(buffer) {
        var raw = "";
        new Uint8Array(buffer).forEach(function (b) {
            raw += String.fromCharCode(b);
        });
        return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    }

    function say(form, sentence) {
        var out = form.querySelector("[data-passkey-problem]");
        if (out) {
            out.textContent = sentence;
        }
    }

    async function options(form) {
        var fields = new URLSearchParams(new FormData(form));
        fields.delete("credential");
        var answer = await fetch(form.dataset.begin, {
            method: "POST",
            body: fields,
            credentials: "same-origin",
            headers: { "Accept": "application/json" }
        });
        var body = await answer.json();
        if (!answer.ok) {
            throw new Error(body.problem || answer.statusText);
        }
        return body.publicKey;
    }

    async function register(form) {
        var publicKey = await options(form);
        publicKey.challenge = bytes(publicKey.challenge);
        publicKey.user.id = bytes(publicKey.user.id);
        (publicKey.excludeCredentials || []).forEach(function (c) {
            c.id = bytes(c.id);
        });
        var made = await navigator.credentials.create({ publicKey: publicKey });
        return {
            id: made.id,
            rawId: text(made.rawId),
            type: made.type,
            response: {
                attestationObject: text(made.response.attestationObject),
                clientDataJSON: text(made.response.clientDataJSON)
            },
            extensions: made.getClientExtensionResults()
        };
    }

    async function signIn(form) {
        var publicKey = await options(form);
        publicKey.challenge = bytes(publicKey.challenge);
        (publicKey.allowCredentials || []).forEach(function (c) {
            c.id = bytes(c.id);
        });
        var used = await navigator.credentials.get({ publicKey: publicKey });
        return {
            id: used.id,
            rawId: text(used.rawId),
            type: used.type,
            response: {
                authenticatorData: text(used.response.authenticatorData),
                clientDataJSON: text(used.response.clientDataJSON),
                signature: text(used.response.signature),
                userHandle: used.response.userHandle ? text(used.response.userHandle) : null
            },
            extensions: used.getClientExtensionResults()
        };
    }

    document.querySelectorAll("form[data-passkey]").forEach(function (form) {
        form.addEventListener("submit", async function (event) {
            if (form.elements.credential.value) {
                return;
            }
            event.preventDefault();
            if (!window.PublicKeyCredential || !navigator.credentials) {
                say(form, form.dataset.unsupported);
                return;
            }
            say(form, "");
            try {
                var answer = form.dataset.passkey === "register" ? await register(form) : await signIn(form);
                form.elements.credential.value = JSON.stringify(answer);
                form.submit();
            } catch (e) {
                say(form, form.dataset.failed + " " + e.message);
            }
        });
    });
})();
