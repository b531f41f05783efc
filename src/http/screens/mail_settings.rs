//! The company's mail settings, the owner's: the SMTP server, its security
//! and login, the sender, reply-to, the archive copy, CA certificates of
//! its own, and whether an XML e-invoice goes with its PDF; and a button
//! that sends a test mail. The same books functions `kontor company mail`
//! calls. The password field is never filled in: a password is shown as
//! set or not, and left empty it stays as stored.

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{choice, post, Acted, Form, FormField, Problems};
use super::frame::{screen_with, see_other, Screen};
use super::history;
use crate::access::people::Capability;
use crate::books::sending;
use crate::error::Result;
use crate::http::app::Answer;
use crate::outbox::mail::message::{ADDRESS_MAX, NAME_MAX};
use crate::outbox::mail::settings::{Settings, SettingsInput, View, PASSWORD_MAX, USER_MAX};
use crate::outbox::mail::transport::CA_MAX;
use crate::rules::locale::Lang;
use crate::store::sealed::Secret;

/// The settings' text fields, named as `company mail` names its flags.
const MAIL: Form = Form::new(&[
    FormField::text("host", "SMTP server", "SMTP-Server", 253)
        .required()
        .hint("Host name or address", "Hostname oder Adresse"),
    FormField::text("port", "Port", "Port", 5).hint(
        "Empty: 465 for TLS, 587 for STARTTLS, 25 without encryption",
        "Leer: 465 bei TLS, 587 bei STARTTLS, 25 ohne Verschlüsselung",
    ),
    FormField::text("user", "User", "Benutzer", USER_MAX).autocomplete("username"),
    FormField::text("password", "Password", "Passwort", PASSWORD_MAX)
        .kind("password")
        .autocomplete("new-password")
        .hint(
            "Stored sealed and never shown again; empty: the stored one stays",
            "Wird versiegelt gespeichert und nie wieder angezeigt; leer: das gespeicherte bleibt",
        ),
    FormField::text("from", "Sender address", "Absenderadresse", ADDRESS_MAX)
        .required()
        .kind("email"),
    FormField::text("fromName", "Sender name", "Absendername", NAME_MAX),
    FormField::text("replyTo", "Reply-to address", "Antwortadresse", ADDRESS_MAX).kind("email"),
    FormField::text("bcc", "Archive copy to", "Archivkopie an", ADDRESS_MAX)
        .kind("email")
        .hint(
            "Every mail also goes here, as a blind copy",
            "Jede E-Mail geht auch hierhin, als Blindkopie",
        ),
])
.naming(&[
    ("security", "Security", "Sicherheit"),
    ("caFile", "Own CA certificates", "Eigene CA-Zertifikate"),
    ("pdfWithXml", "PDF with XML", "PDF zur XML"),
    ("to", "Test mail to", "Testnachricht an"),
]);

/// A test mail's address.
const TEST: Form =
    Form::new(&[
        FormField::text("to", "Test mail to", "Testnachricht an", ADDRESS_MAX)
            .kind("email")
            .hint("Empty: the sender address", "Leer: die Absenderadresse"),
    ]);

fn title(lang: Lang) -> &'static str {
    lang.pick("Mail settings", "E-Mail-Einstellungen")
}

/// The stored value of a field, as the form shows it (never the password).
fn stored(view: Option<&View>, field: &str) -> String {
    let Some(v) = view else {
        return String::new();
    };
    let text = |o: &Option<String>| o.clone().unwrap_or_default();
    match field {
        "host" => v.host.clone(),
        "port" => v.port.to_string(),
        "user" => text(&v.user),
        "from" => v.from.clone(),
        "fromName" => text(&v.from_name),
        "replyTo" => text(&v.reply_to),
        "bcc" => text(&v.bcc),
        _ => String::new(),
    }
}

/// The page; a refused form shows what was typed (never a password) and its problems.
fn page(
    ctx: &Ctx,
    status: StatusCode,
    problems: &Problems,
    test_problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let view = sending::mail_settings(ctx.conn, &tenant.company_id)?;
    let refused = !problems.list.is_empty();
    let value = |field: &str| {
        if field == "password" {
            String::new()
        } else if refused {
            ctx.typed(field)
        } else {
            stored(view.as_ref(), field)
        }
    };
    let security = if refused {
        ctx.typed("security")
    } else {
        view.as_ref()
            .map_or("starttls", |v| v.security.as_str())
            .to_string()
    };
    let pdf_with_xml = if refused {
        ctx.yes_no("pdfWithXml") == Some(true)
    } else {
        view.as_ref().is_none_or(|v| v.pdf_with_xml)
    };
    let test = sending::last_test(ctx.conn, tenant)?;
    let zone = history::zone(ctx)?;
    let notice = ctx.notice(
        "done",
        &[
            (
                "saved",
                "The mail settings are saved.",
                "Die E-Mail-Einstellungen sind gespeichert.",
            ),
            (
                "test",
                "The test mail is on its way; its state shows below.",
                "Die Testnachricht ist unterwegs; ihr Stand steht unten.",
            ),
        ],
    );
    let securities = [
        (
            "starttls".to_string(),
            lang.pick(
                "STARTTLS (required), port 587",
                "STARTTLS (erforderlich), Port 587",
            )
            .to_string(),
        ),
        (
            "tls".to_string(),
            lang.pick(
                "TLS from the start, port 465",
                "TLS von Anfang an, Port 465",
            )
            .to_string(),
        ),
        (
            "none".to_string(),
            lang.pick(
                "None: a relay on this machine only",
                "Keine: nur ein Relay auf diesem Rechner",
            )
            .to_string(),
        ),
    ];
    let content = html! {
        @if let Some(notice) = notice.filter(|_| !refused) {
            p.notice role="status" { (notice) }
        }
        section aria-labelledby="server-heading" {
            h2 #server-heading { (lang.pick("Server and sender", "Server und Absender")) }
            p {
                (lang.pick("Password: ", "Passwort: "))
                @if view.as_ref().is_some_and(|v| v.password_set) {
                    (lang.pick("set (sealed with the key file beside the data file)", "gesetzt (versiegelt mit der Schlüsseldatei neben der Datendatei)"))
                } @else {
                    (lang.pick("none", "keins"))
                }
            }
            (MAIL.summary(lang, problems))
            (post(ctx, "/settings/mail", html! {
                (choice(lang, "security", &MAIL.label(lang, "security"), &securities, &security, None, problems))
                (MAIL.fields(lang, &value, problems))
                div.field {
                    label for="field-caPem" { (MAIL.label(lang, "caFile")) }
                    span.hint id="field-caPem-hint" { (lang.pick(
                        "PEM certificates to trust besides the system's, for a server with a CA of its own; empty: the stored ones stay",
                        "PEM-Zertifikate, denen neben denen des Systems vertraut wird, für einen Server mit eigener CA; leer: die gespeicherten bleiben",
                    )) }
                    textarea #field-caPem name="caPem" rows="3" maxlength=(CA_MAX) aria-describedby="field-caPem-hint" {}
                }
                @if view.as_ref().is_some_and(|v| v.own_ca) {
                    fieldset.choices {
                        legend { (lang.pick("Own CA certificates are stored", "Eigene CA-Zertifikate sind gespeichert")) }
                        div {
                            input #field-dropCa type="checkbox" name="dropCa" value="yes";
                            label for="field-dropCa" { (lang.pick("Remove them", "Entfernen")) }
                        }
                    }
                }
                (MAIL.yes_no(lang, "pdfWithXml", lang.pick(
                    "An XRechnung or Peppol invoice goes with its PDF as a second attachment",
                    "Eine XRechnung oder Peppol-Rechnung geht mit ihrem PDF als zweitem Anhang",
                ), pdf_with_xml))
            }, lang.pick("Save mail settings", "E-Mail-Einstellungen speichern")))
        }
        @if view.is_some() {
            section aria-labelledby="test-heading" {
                h2 #test-heading { (lang.pick("Test mail", "Testnachricht")) }
                @if let Some(t) = &test {
                    p #test-state {
                        (lang.pick("Last test mail to ", "Letzte Testnachricht an ")) (t.to) ": "
                        strong { (t.state.as_str()) }
                        @if let Some(reply) = &t.smtp_reply { " · " (reply) }
                        @if let Some(error) = &t.last_error { " · " (error) }
                        " · " (history::when(lang, &zone, &t.created_at))
                    }
                }
                (TEST.summary(lang, test_problems))
                (post(ctx, "/settings/mail/test", TEST.fields(lang, &|f| if test_problems.list.is_empty() { String::new() } else { ctx.typed(f) }, test_problems), lang.pick("Send a test mail", "Testnachricht senden")))
            }
        }
        p { a href="/settings" { (lang.pick("Settings", "Einstellungen")) } }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Settings,
        title(lang),
        content,
    ))
}

/// GET /settings/mail
pub fn show(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    page(
        ctx,
        StatusCode::OK,
        &Problems::default(),
        &Problems::default(),
    )
}

/// POST /settings/mail: the settings, as `company mail` sets them.
pub fn save(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let text = |f: &str| ctx.form.get(f).map(str::to_string);
    let ca = text("caPem").filter(|t| !t.trim().is_empty());
    let checked = Settings::check(
        SettingsInput {
            host: text("host"),
            port: text("port"),
            security: text("security"),
            user: text("user"),
            password: text("password").filter(|p| !p.is_empty()).map(Secret::new),
            from: text("from"),
            from_name: text("fromName"),
            reply_to: text("replyTo"),
            bcc: text("bcc"),
            ca_pem: ca,
            drop_ca: ctx.form.all("dropCa").contains(&"yes"),
            pdf_with_xml: Some(ctx.yes_no("pdfWithXml") == Some(true)),
        },
        &ctx.app.mail_allow,
    );
    let key = ctx.app.sealing.clone();
    let saved = MAIL.act(ctx, checked, |tx, settings| {
        sending::set_settings(tx, tenant, &ctx.actor(), &settings, &key).map(|_| ())
    })?;
    match saved {
        Acted::Done(()) => Ok(see_other("/settings/mail?done=saved")),
        Acted::Refused(r) => page(ctx, r.status, &r.problems, &Problems::default()),
    }
}

/// POST /settings/mail/test `{to}`: a test mail through the stored settings.
pub fn test(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let to = ctx.form.get("to").map(str::to_string);
    let sent = TEST.act(ctx, Ok(to), |tx, to| {
        sending::send_test(tx, tenant, &ctx.actor(), to.as_deref()).map(|_| ())
    })?;
    match sent {
        Acted::Done(()) => Ok(see_other("/settings/mail?done=test")),
        Acted::Refused(r) => page(ctx, r.status, &Problems::default(), &r.problems),
    }
}
