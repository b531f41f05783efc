//! The developer settings, the owner's alone: the company's API keys (make
//! one with a name, scopes and an environment, its secret shown once on the
//! answer; revoke one) and the webhook endpoints of the data being viewed
//! (register, disable), with each endpoint's delivery log and redelivery.
//! Keys and endpoints are made by the same `access::keys` and
//! `books::webhooks` acts the console and the API call; a key made here
//! binds to the company being viewed. Every act records the person in the
//! audit, in the books being viewed.

use hyper::StatusCode;
use maud::{html, Markup};
use serde_json::Value;

use super::context::Ctx;
use super::form::{post, Acted, Form, FormField, Problems};
use super::frame::{
    act_button, csrf, pager, screen, screen_with, see_other, shown_once, th, Noun, Screen, Table,
};
use super::history;
use crate::access::keys::{self, KeyInput, NewKey};
use crate::access::people::Capability;
use crate::access::scopes::Scope;
use crate::books::webhooks;
use crate::error::Result;
use crate::http::app::Answer;
use crate::outbox::endpoints::{self, DeliveryState, Endpoint, EndpointInput, NewEndpoint};
use crate::outbox::events::EventKind;
use crate::rules::locale::Lang;
use crate::store::tenant::Environment;

/// A new API key: its name, its scopes (a group of checkboxes) and its
/// environment (a choice).
const KEY: Form =
    Form::new(&[
        FormField::text("name", "Key name", "Name des Schlüssels", keys::MAX_NAME).required(),
    ])
    .naming(&[
        ("scopes", "Scopes", "Berechtigungen"),
        ("environment", "Environment", "Umgebung"),
    ]);

/// A new webhook endpoint: its address, its events (a group of
/// checkboxes) and a description. A refusal of the address as a whole
/// (unreadable, not public) is about the one field that holds it.
const ENDPOINT: Form = Form::new(&[URL, DESCRIPTION])
    .naming(&[("events", "Events", "Ereignisse")])
    .whole_at("url");
const URL: FormField = FormField::text("url", "URL", "URL", 2000)
    .required()
    .kind("url")
    .hint("A public https address", "Eine öffentliche https-Adresse");
const DESCRIPTION: FormField = FormField::text("description", "Description", "Beschreibung", 200);

fn title(lang: Lang) -> &'static str {
    lang.pick("Developers", "Entwickler")
}

/// The environment a key form offers first: the one being viewed.
fn environment_value(env: Environment) -> &'static str {
    match env {
        Environment::Production => "live",
        Environment::Sandbox => "test",
    }
}

fn environment_name(lang: Lang, env: &str) -> &'static str {
    match env {
        "test" | "sandbox" | "SANDBOX" => lang.pick("test data", "Testdaten"),
        _ => lang.pick("live data", "echte Daten"),
    }
}

/// What a refused form had typed, to show it again.
struct Typed<'a> {
    name: &'a str,
    scopes: Vec<&'a str>,
    environment: &'a str,
    url: &'a str,
    events: Vec<&'a str>,
    description: &'a str,
}

fn key_form(ctx: &Ctx, typed: &Typed, problems: &Problems) -> Markup {
    let lang = ctx.lang;
    let wrong = |f: &str| problems.at(f);
    html! {
        section aria-labelledby="new-key-heading" {
            h2 #new-key-heading { (lang.pick("New API key", "Neuer API-Schlüssel")) }
            (KEY.summary(lang, problems))
            (post(ctx, "/developers/keys", html! {
                (KEY.fields(lang, &|_| typed.name.to_string(), problems))
                fieldset.choices.wrong[wrong("scopes")] aria-invalid=[wrong("scopes").then_some("true")] {
                    legend { (KEY.label(lang, "scopes")) " " span.required aria-hidden="true" { "*" } }
                    @for scope in Scope::ALL {
                        @let id = format!("scope-{}", scope.name().replace(':', "-"));
                        div {
                            input type="checkbox" id=(id) name="scopes" value=(scope.name())
                                checked[typed.scopes.contains(&scope.name())];
                            label for=(id) { code { (scope.name()) } }
                        }
                    }
                }
                div.field.wrong[wrong("environment")] {
                    label for="field-environment" { (KEY.label(lang, "environment")) }
                    select #field-environment name="environment" {
                        option value="live" selected[typed.environment == "live"] { (environment_name(lang, "live")) }
                        option value="test" selected[typed.environment == "test"] { (environment_name(lang, "test")) }
                    }
                }
            }, lang.pick("Create key", "Schlüssel erstellen")))
        }
    }
}

fn endpoint_form(ctx: &Ctx, typed: &Typed, problems: &Problems) -> Markup {
    let lang = ctx.lang;
    let wrong = |f: &str| problems.at(f);
    html! {
        section aria-labelledby="new-endpoint-heading" {
            h2 #new-endpoint-heading { (lang.pick("Register a webhook endpoint", "Webhook-Endpunkt registrieren")) }
            (ENDPOINT.summary(lang, problems))
            (post(ctx, "/developers/webhooks", html! {
                (URL.render(lang, typed.url, problems))
                fieldset.choices.wrong[wrong("events")] {
                    legend { (ENDPOINT.label(lang, "events")) " " span.required aria-hidden="true" { "*" } }
                    div {
                        input type="checkbox" id="event-all" name="events" value="*" checked[typed.events.contains(&"*")];
                        label for="event-all" { (lang.pick("Every event", "Alle Ereignisse")) }
                    }
                    @for kind in EventKind::ALL {
                        @let id = format!("event-{}", kind.as_str().replace('.', "-"));
                        div {
                            input type="checkbox" id=(id) name="events" value=(kind.as_str())
                                checked[typed.events.contains(&kind.as_str())];
                            label for=(id) { code { (kind.as_str()) } }
                        }
                    }
                }
                (DESCRIPTION.render(lang, typed.description, problems))
            }, lang.pick("Register", "Registrieren")))
        }
    }
}

fn keys_table(ctx: &Ctx, keys: &[Value], zone: &jiff::tz::TimeZone) -> Markup {
    let lang = ctx.lang;
    let text = |v: &Value, f: &str| v[f].as_str().unwrap_or("").to_string();
    html! {
        section aria-labelledby="keys-heading" {
            h2 #keys-heading { (lang.pick("API keys", "API-Schlüssel")) }
            @if keys.is_empty() {
                p { (lang.pick("This company has no API key yet.", "Diese Firma hat noch keinen API-Schlüssel.")) }
            } @else {
                (Table::new(&[
                    th("Name"), th(lang.pick("Key", "Schlüssel")), th(&KEY.label(lang, "environment")),
                    th(&KEY.label(lang, "scopes")), th(lang.pick("Last used", "Zuletzt benutzt")),
                    th(lang.pick("State", "Stand")),
                ])
                .read_caption(lang.pick("API keys of the company, newest first", "API-Schlüssel der Firma, die neuesten zuerst"))
                .rows(keys, |k| html! {
                    td { (text(k, "name")) }
                    td { code { (text(k, "key")) } }
                    td { (environment_name(lang, &text(k, "environment"))) }
                    td {
                        @for (i, s) in k["scopes"].as_array().into_iter().flatten().enumerate() {
                            @if i > 0 { ", " }
                            code { (s.as_str().unwrap_or("")) }
                        }
                    }
                    td {
                        @if let Some(at) = k["lastUsedAt"].as_str() {
                            (history::when(lang, zone, at))
                        }
                    }
                    td {
                        @if k["revokedAt"].is_null() {
                            form method="post" action=(format!("/developers/keys/{}/revoke", text(k, "id"))) {
                                (csrf(ctx))
                                button type="submit" aria-label=(format!("{} {}", lang.pick("Revoke", "Widerrufen:"), text(k, "name"))) {
                                    (lang.pick("Revoke", "Widerrufen"))
                                }
                            }
                        } @else {
                            (lang.pick("revoked ", "widerrufen ")) (history::when(lang, zone, &text(k, "revokedAt")))
                        }
                    }
                }))
            }
        }
    }
}

fn endpoints_table(ctx: &Ctx, page: &crate::store::paging::Page<Endpoint>) -> Markup {
    let lang = ctx.lang;
    html! {
        section aria-labelledby="endpoints-heading" {
            h2 #endpoints-heading { (lang.pick("Webhook endpoints", "Webhook-Endpunkte")) }
            @if page.data.is_empty() {
                p { (lang.pick("No webhook endpoint is registered for this data.", "Für diese Daten ist kein Webhook-Endpunkt registriert.")) }
            } @else {
                (Table::new(&[
                    th("URL"), th(&ENDPOINT.label(lang, "events")), th(&ENDPOINT.label(lang, "description")),
                    th(lang.pick("State", "Stand")),
                ])
                .read_caption(lang.pick("Webhook endpoints, newest first", "Webhook-Endpunkte, die neuesten zuerst"))
                .rows(&page.data, |e| html! {
                    td { a href=(format!("/developers/webhooks/{}", e.id)) { (e.url) } }
                    td { (e.events.join(", ")) }
                    td { (e.description.as_deref().unwrap_or("")) }
                    td { (enabled_name(lang, e.enabled)) }
                }))
                (pager(lang, page, &|n| format!("/developers?page={n}"), Noun { en: ("endpoint", "endpoints"), de: ("Endpunkt", "Endpunkte") }))
            }
        }
    }
}

fn enabled_name(lang: Lang, enabled: bool) -> &'static str {
    if enabled {
        lang.pick("enabled", "aktiv")
    } else {
        lang.pick("disabled", "abgeschaltet")
    }
}

/// The developer settings page, with the problems of a refused form.
fn overview(
    ctx: &Ctx,
    status: StatusCode,
    typed: &Typed,
    key_problems: &Problems,
    endpoint_problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let listed = keys::list(ctx.conn, &tenant.company_id)?;
    let keys: Vec<Value> = listed["data"].as_array().cloned().unwrap_or_default();
    let page = endpoints::list(ctx.conn, tenant, ctx.paging())?;
    let notice = ctx.notice(
        "done",
        &[(
            "revoked",
            "The key is revoked.",
            "Der Schlüssel ist widerrufen.",
        )],
    );
    let content = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        p {
            (lang.pick(
                "Keys made here act for this company; webhook endpoints receive the events of the data being viewed (",
                "Hier erstellte Schlüssel handeln für diese Firma; Webhook-Endpunkte erhalten die Ereignisse der angezeigten Daten (",
            ))
            (environment_name(lang, environment_value(tenant.environment)))
            ")."
        }
        (keys_table(ctx, &keys, &history::zone(ctx)?))
        (key_form(ctx, typed, key_problems))
        (endpoints_table(ctx, &page))
        (endpoint_form(ctx, typed, endpoint_problems))
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Developers,
        title(lang),
        content,
    ))
}

fn empty(ctx: &Ctx) -> Typed<'static> {
    Typed {
        name: "",
        scopes: Vec::new(),
        environment: environment_value(ctx.session.tenant.environment),
        url: "",
        events: Vec::new(),
        description: "",
    }
}

/// GET /developers
pub fn show(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageDevelopers)?;
    overview(
        ctx,
        StatusCode::OK,
        &empty(ctx),
        &Problems::default(),
        &Problems::default(),
    )
}

/// POST /developers/keys `{name, scopes…, environment}`: a key of the
/// company being viewed; the answer shows its secret, once.
pub fn create_key(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageDevelopers)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let scopes = ctx.form.all("scopes");
    let checked = NewKey::check(KeyInput {
        company_id: Some(tenant.company_id.clone()),
        name: ctx.form.get("name").map(str::to_string),
        environment: ctx.form.get("environment").map(str::to_string),
        scopes: Some(scopes.join(",")),
        expires_at: None,
    });
    let created = KEY.act(ctx, checked, |tx, new| {
        keys::create(tx, tenant, &ctx.actor(), new)
    })?;
    let typed = Typed {
        name: ctx.form.sent("name").unwrap_or(""),
        scopes,
        environment: ctx.form.get("environment").unwrap_or(""),
        ..empty(ctx)
    };
    answer(ctx, created, &typed, true, |key| {
        let text = |f: &str| key[f].as_str().unwrap_or("").to_string();
        let content = html! {
            p.notice role="status" {
                (lang.pick("The key ", "Der Schlüssel ")) strong { (text("name")) }
                (lang.pick(" is made for ", " ist erstellt für "))
                (environment_name(lang, &text("environment"))) "."
            }
            (shown_once(lang.pick(
                "Copy the key now: it is shown only this once and cannot be shown again.",
                "Kopieren Sie den Schlüssel jetzt: Er wird nur dieses eine Mal gezeigt.",
            ), "secret", lang.pick("The key", "Der Schlüssel"), &text("secret"), 60))
            p { a href="/developers" { (lang.pick("Back to the developer settings", "Zurück zu den Entwickler-Einstellungen")) } }
        };
        (lang.pick("New API key", "Neuer API-Schlüssel"), content)
    })
}

/// Answers a create of the developer settings: done, the page of what was
/// made (`shown` gives its title and content, its secret shown once);
/// refused, the settings again with what was `typed` and the refusal
/// beside the fields of the form it came from (the key's when `key`, else
/// the endpoint's).
fn answer<T>(
    ctx: &Ctx,
    acted: Acted<T>,
    typed: &Typed,
    key: bool,
    shown: impl FnOnce(T) -> (&'static str, Markup),
) -> Result<Answer> {
    let none = Problems::default();
    match acted {
        Acted::Done(made) => {
            let (title, content) = shown(made);
            Ok(screen(ctx, Screen::Developers, title, content))
        }
        Acted::Refused(r) if key => overview(ctx, r.status, typed, &r.problems, &none),
        Acted::Refused(r) => overview(ctx, r.status, typed, &none, &r.problems),
    }
}

/// POST /developers/keys/{id}/revoke
pub fn revoke_key(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageDevelopers)?;
    let tenant = &ctx.session.tenant;
    ctx.write(|tx| keys::revoke(tx, tenant, &ctx.actor(), id))?;
    Ok(see_other("/developers?done=revoked"))
}

/// POST /developers/webhooks `{url, events…, description}`: the answer shows
/// the signing secret, once.
pub fn create_endpoint(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageDevelopers)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let events = ctx.form.all("events");
    let input = EndpointInput {
        url: ctx.form.get("url").map(str::to_string),
        events: Some(events.iter().map(|e| e.to_string()).collect()),
        description: ctx.form.get("description").map(str::to_string),
    };
    let checked = NewEndpoint::check(input, ctx.app.webhook_policy);
    let created = ENDPOINT.act(ctx, checked, |tx, new| {
        webhooks::register_shown(tx, tenant, &ctx.actor(), &new)
    })?;
    let typed = Typed {
        url: ctx.form.sent("url").unwrap_or(""),
        events,
        description: ctx.form.sent("description").unwrap_or(""),
        ..empty(ctx)
    };
    answer(ctx, created, &typed, false, |endpoint| {
        let content = html! {
            p.notice role="status" {
                (lang.pick("The endpoint ", "Der Endpunkt ")) strong { (endpoint.url) }
                (lang.pick(" is registered.", " ist registriert."))
            }
            (shown_once(lang.pick(
                "Copy the signing secret now: it is shown only this once. Receivers check each delivery's signature with it.",
                "Kopieren Sie das Signaturgeheimnis jetzt: Es wird nur dieses eine Mal gezeigt. Empfänger prüfen damit die Signatur jeder Zustellung.",
            ), "secret", lang.pick("Signing secret", "Signaturgeheimnis"), endpoint.secret.as_deref().unwrap_or(""), 60))
            p { a href=(format!("/developers/webhooks/{}", endpoint.id)) { (lang.pick("To the endpoint and its deliveries", "Zum Endpunkt und seinen Zustellungen")) } }
        };
        (
            lang.pick(
                "Webhook endpoint registered",
                "Webhook-Endpunkt registriert",
            ),
            content,
        )
    })
}

fn state_name(lang: Lang, state: DeliveryState) -> &'static str {
    match state {
        DeliveryState::Pending => lang.pick("pending", "ausstehend"),
        DeliveryState::Delivered => lang.pick("delivered", "zugestellt"),
        DeliveryState::Failed => lang.pick("failed", "gescheitert"),
    }
}

/// GET /developers/webhooks/{id}: the endpoint and its delivery log.
pub fn endpoint(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageDevelopers)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let endpoint = endpoints::get(ctx.conn, tenant, id)?;
    let zone = history::zone(ctx)?;
    let log = endpoints::deliveries(ctx.conn, tenant, Some(id), ctx.paging())?;
    let notice = ctx.notice(
        "done",
        &[
            (
                "disabled",
                "The endpoint is disabled; nothing more is sent to it.",
                "Der Endpunkt ist abgeschaltet; es wird nichts mehr dorthin gesendet.",
            ),
            (
                "redelivered",
                "The event will be sent again.",
                "Das Ereignis wird erneut gesendet.",
            ),
        ],
    );
    let content = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { "URL" } dd { (endpoint.url) } }
            div { dt { (ENDPOINT.label(lang, "events")) } dd { (endpoint.events.join(", ")) } }
            div { dt { (ENDPOINT.label(lang, "description")) } dd { (endpoint.description.as_deref().unwrap_or("")) } }
            div { dt { (lang.pick("State", "Stand")) } dd { (enabled_name(lang, endpoint.enabled)) } }
            div { dt { (lang.pick("Registered", "Registriert")) } dd { (history::when(lang, &zone, &endpoint.created_at)) } }
        }
        @if endpoint.enabled {
            (act_button(ctx, &format!("/developers/webhooks/{id}/disable"), lang.pick("Disable this endpoint", "Diesen Endpunkt abschalten")))
        }
        section aria-labelledby="log-heading" {
            h2 #log-heading { (lang.pick("Deliveries", "Zustellungen")) }
            @if log.data.is_empty() {
                p { (lang.pick("Nothing has been sent to this endpoint yet.", "An diesen Endpunkt wurde noch nichts gesendet.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Event", "Ereignis")), th(lang.pick("State", "Stand")),
                    th(lang.pick("Attempts", "Versuche")), th(lang.pick("Last answer", "Letzte Antwort")),
                    th(lang.pick("Created", "Angelegt")), th(lang.pick("Send again", "Erneut senden")),
                ])
                .read_caption(lang.pick("Deliveries, newest first", "Zustellungen, die neuesten zuerst"))
                .rows(&log.data, |d| html! {
                    td { code { (d.event.as_str()) } " " (d.event_id) }
                    td { (state_name(lang, d.state)) }
                    td { (d.attempts) }
                    td {
                        @if let Some(status) = d.last_status { (status) " " }
                        (d.last_error.as_deref().unwrap_or(""))
                    }
                    td { (history::when(lang, &zone, &d.created_at)) }
                    td {
                        @if endpoint.enabled {
                            form method="post" action=(format!("/developers/webhooks/{id}/deliveries/{}/redeliver", d.id)) {
                                (csrf(ctx))
                                button type="submit" aria-label=(format!("{} {}", lang.pick("Redeliver", "Erneut senden:"), d.id)) {
                                    (lang.pick("Redeliver", "Erneut senden"))
                                }
                            }
                        }
                    }
                }))
                (pager(lang, &log, &|n| format!("/developers/webhooks/{id}?page={n}"), Noun { en: ("delivery", "deliveries"), de: ("Zustellung", "Zustellungen") }))
            }
        }
        p { a href="/developers" { (lang.pick("Back to the developer settings", "Zurück zu den Entwickler-Einstellungen")) } }
    };
    Ok(screen(
        ctx,
        Screen::Developers,
        lang.pick("Webhook endpoint", "Webhook-Endpunkt"),
        content,
    ))
}

/// POST /developers/webhooks/{id}/disable
pub fn disable_endpoint(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageDevelopers)?;
    let tenant = &ctx.session.tenant;
    ctx.write(|tx| webhooks::disable(tx, tenant, &ctx.actor(), id))?;
    Ok(see_other(&format!(
        "/developers/webhooks/{id}?done=disabled"
    )))
}

/// POST /developers/webhooks/{id}/deliveries/{delivery}/redeliver
pub fn redeliver(ctx: &Ctx, id: &str, delivery: &str) -> Result<Answer> {
    ctx.must(Capability::ManageDevelopers)?;
    let tenant = &ctx.session.tenant;
    ctx.write(|tx| {
        endpoints::delivery_to(tx, tenant, id, delivery)?;
        webhooks::redeliver(tx, tenant, &ctx.actor(), delivery)
    })?;
    Ok(see_other(&format!(
        "/developers/webhooks/{id}?done=redelivered"
    )))
}
