import type { Extracted, LinkKind } from "@burnbox/contracts";
import { extract, type ExtractInput } from "./extract";
import { MAX_SCANNED_CHARS } from "./links";

/**
 * Extensions section 2, rule by rule: each row is a mail shaped like a real one (sign-up, reset,
 * magic link, OTP in the subject or an HTML table, localized keywords) or one whose numbers are
 * not codes (orders, prices, dates, phones, tracking), and the exact `extracted` it gives.
 */
interface Row {
  name: string;
  mail: { subject: string; text?: string | null; html?: string | null; headers?: Record<string, string> };
  codes: Array<[value: string, context: string]>;
  links: Array<[url: string, text: string, kind: LinkKind]>;
}

const rows: Row[] = [
  // ---- codes next to a keyword (sign-up, login, reset)
  {
    name: "sign-up code in the text part",
    mail: {
      subject: "Confirm your Acme account",
      text: "Welcome to Acme!\n\nYour verification code is 482913.\nIt expires in 10 minutes.",
    },
    codes: [["482913", "Your verification code is 482913. It expires in 10 minutes."]],
    links: [],
  },
  {
    name: "OTP in the subject next to a keyword",
    mail: { subject: "482913 is your Acme code", text: "Hi there, thanks for signing up." },
    codes: [["482913", "482913 is your Acme code"]],
    links: [],
  },
  {
    name: "the subject's only run, no keyword",
    mail: { subject: "Acme: 739204", text: "Thanks for signing up." },
    codes: [["739204", "Acme: 739204"]],
    links: [],
  },
  {
    name: "two runs in the subject and no keyword: none",
    mail: { subject: "Ticket 4821 updated, 7392 replies", text: "See the thread." },
    codes: [],
    links: [],
  },
  {
    name: "a code split by one space",
    mail: { subject: "Sign in to Acme", text: "Your login code: 123 456" },
    codes: [["123456", "Your login code: 123 456"]],
    links: [],
  },
  {
    name: "a code split by one dash",
    mail: { subject: "Acme", text: "Enter 482-913 to verify your phone." },
    codes: [["482913", "Enter 482-913 to verify your phone."]],
    links: [],
  },
  {
    name: "capital letters and digits",
    mail: { subject: "Acme", text: "Your one-time passcode is K7QX9P." },
    codes: [["K7QX9P", "Your one-time passcode is K7QX9P."]],
    links: [],
  },
  { name: "capital letters without a digit: none", mail: { subject: "Acme", text: "Your code is ABCDEF." }, codes: [], links: [] },
  {
    name: "digit-only codes come before other codes",
    mail: { subject: "Acme", text: "Code: A1B2C3 or use the PIN 4455 at the door." },
    codes: [
      ["4455", "Code: A1B2C3 or use the PIN 4455 at the door."],
      ["A1B2C3", "Code: A1B2C3 or use the PIN 4455 at the door."],
    ],
    links: [],
  },
  {
    name: "a code found twice is listed once",
    mail: { subject: "Your code 482913", text: "Enter 482913 to continue.\nCode: 482913" },
    codes: [["482913", "Your code 482913"]],
    links: [],
  },
  {
    name: "at most five codes",
    mail: { subject: "Backup codes", text: "Your backup codes:\n11111111\n22222222\n33333333\n44444444\n55555555\n66666666\n77777777" },
    codes: [
      ["11111111", "Your backup codes: 11111111 22222222 33333333 44444444 55555"],
      ["22222222", "ur backup codes: 11111111 22222222 33333333 44444444 5555555"],
      ["33333333", "codes: 11111111 22222222 33333333 44444444 55555555 6666666"],
      ["44444444", "1111111 22222222 33333333 44444444 55555555 66666666 7777777"],
      ["55555555", "111111 22222222 33333333 44444444 55555555 66666666 77777777"],
    ],
    links: [],
  },
  {
    name: "keyword after the code",
    mail: { subject: "Acme", text: "482913 is your security code. Do not share it." },
    codes: [["482913", "482913 is your security code. Do not share it."]],
    links: [],
  },
  {
    name: "exactly 40 characters away",
    mail: { subject: "Acme", text: "code" + " " + "x".repeat(38) + " " + "123456" },
    codes: [["123456", "code xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 123456"]],
    links: [],
  },
  {
    name: "41 characters away: none",
    mail: { subject: "Acme", text: "code" + " " + "x".repeat(39) + " " + "123456" },
    codes: [],
    links: [],
  },
  {
    name: "whole words only: shopping holds no pin",
    mail: { subject: "Acme", text: "Free shipping on everything, 48291 shopping carts filled." },
    codes: [],
    links: [],
  },
  {
    name: "white space folded before counting",
    mail: { subject: "Acme", text: "Your code\n\n\n\n\n\n                                   is\n\n 482913" },
    codes: [["482913", "Your code is 482913"]],
    links: [],
  },
  {
    name: "uppercase keyword",
    mail: { subject: "Acme", text: "YOUR LOGIN CODE IS 482913" },
    codes: [["482913", "YOUR LOGIN CODE IS 482913"]],
    links: [],
  },
  { name: "a label colon", mail: { subject: "Acme", text: "OTP:482913" }, codes: [["482913", "OTP:482913"]], links: [] },
  {
    name: "token in capitals and digits",
    mail: { subject: "Your API token", text: "Your personal access token is 8F3K2L9Q. Keep it secret." },
    codes: [["8F3K2L9Q", "Your personal access token is 8F3K2L9Q. Keep it secret."]],
    links: [],
  },
  {
    name: "subject codes before body codes",
    mail: { subject: "Your code is 111222", text: "Or use verification code 333444 instead." },
    codes: [
      ["111222", "Your code is 111222"],
      ["333444", "Or use verification code 333444 instead."],
    ],
    links: [],
  },
  {
    name: "body digit code before subject alnum code",
    mail: { subject: "Your code: AB12CD", text: "Your PIN is 9090." },
    codes: [
      ["9090", "Your PIN is 9090."],
      ["AB12CD", "Your code: AB12CD"],
    ],
    links: [],
  },
  {
    name: "keyword codes before the subject's only run",
    mail: { subject: "Acme 555666", text: "Your code is 777888." },
    codes: [
      ["777888", "Your code is 777888."],
      ["555666", "Acme 555666"],
    ],
    links: [],
  },
  {
    name: "reset code",
    mail: {
      subject: "Reset your password",
      text: "Use this code to reset your password: 550912\nIf you did not ask for it, ignore this mail.",
    },
    codes: [["550912", "de to reset your password: 550912 If you did not ask for it,"]],
    links: [],
  },
  {
    name: "promo code is a code by the rules",
    mail: { subject: "20% off", text: "Use code SAVE20 at checkout for 20% off." },
    codes: [["SAVE20", "Use code SAVE20 at checkout for 20% off."]],
    links: [],
  },
  // ---- HTML
  {
    name: "OTP in an HTML table",
    mail: {
      subject: "Verify your email",
      html: `<html><head><style>td{font-family:Arial}</style><title>Code 999999</title></head><body><table role="presentation"><tr><td>Your verification code</td></tr><tr><td style="font-size:32px;letter-spacing:8px"><strong>739204</strong></td></tr><tr><td>This code expires in 15 minutes.</td></tr></table></body></html>`,
    },
    codes: [["739204", "Your verification code 739204 This code expires in 15 minute"]],
    links: [],
  },
  {
    name: "digits in spans read as one run",
    mail: { subject: "Acme", html: `<p>Your code is <span>739</span><span>204</span></p>` },
    codes: [["739204", "Your code is 739204"]],
    links: [],
  },
  {
    name: "cells never run together",
    mail: { subject: "Acme", html: `<table><tr><td>Code</td><td>482</td><td>913</td></tr></table>` },
    codes: [],
    links: [],
  },
  {
    name: "no-break space splits like a space",
    mail: { subject: "Acme", html: `<p>Code&nbsp;123&nbsp;456</p>` },
    codes: [["123456", "Code 123 456"]],
    links: [],
  },
  {
    name: "the text part wins over the HTML",
    mail: { subject: "Acme", text: "Your code is 111333.", html: `<p>Your code is 999777.</p>` },
    codes: [["111333", "Your code is 111333."]],
    links: [],
  },
  {
    name: "a blank text part falls back to the HTML",
    mail: { subject: "Acme", text: "  \n ", html: `<p>Your code is 999777.</p>` },
    codes: [["999777", "Your code is 999777."]],
    links: [],
  },
  {
    name: "attribute values are not text",
    mail: {
      subject: "Acme",
      html: `<p>Click to verify.</p><a href="https://acme.test/v?code=556677" title="code 112233">Verify</a><img alt="x" src="https://acme.test/p/445566.png">`,
    },
    codes: [],
    links: [["https://acme.test/v?code=556677", "Verify", "verify"]],
  },
  {
    name: "script and style are not text",
    mail: { subject: "Acme", html: `<style>.code{color:#123456}</style><script>var code = 482913;</script><p>Welcome aboard.</p>` },
    codes: [],
    links: [],
  },
  {
    name: "preheader and body give one code",
    mail: {
      subject: "Acme",
      html: `<div style="display:none">Your code is 482913&#847;&zwnj;&nbsp;&#847;</div><p>Your verification code:</p><h1>482913</h1>`,
    },
    codes: [["482913", "Your code is 482913 Your verification code: 482913"]],
    links: [],
  },
  // ---- localized keywords
  {
    name: "German",
    mail: { subject: "Ihr Konto", text: "Ihr Bestätigungscode lautet: 839201" },
    codes: [["839201", "Ihr Bestätigungscode lautet: 839201"]],
    links: [],
  },
  {
    name: "Spanish",
    mail: { subject: "Tu cuenta", text: "Tu código de verificación es 582910." },
    codes: [["582910", "Tu código de verificación es 582910."]],
    links: [],
  },
  {
    name: "French",
    mail: { subject: "Votre compte", text: "Votre code de vérification : 771204" },
    codes: [["771204", "Votre code de vérification : 771204"]],
    links: [],
  },
  {
    name: "Portuguese",
    mail: { subject: "Sua conta", text: "Seu código de verificação é 663201." },
    codes: [["663201", "Seu código de verificação é 663201."]],
    links: [],
  },
  {
    name: "Italian",
    mail: { subject: "Il tuo account", text: "Il tuo codice di verifica è 448120." },
    codes: [["448120", "Il tuo codice di verifica è 448120."]],
    links: [],
  },
  {
    name: "Russian",
    mail: { subject: "Ваш аккаунт", text: "Ваш код подтверждения: 551902" },
    codes: [["551902", "Ваш код подтверждения: 551902"]],
    links: [],
  },
  {
    name: "Chinese",
    mail: { subject: "账户", text: "您的验证码是123456，5分钟内有效。" },
    codes: [["123456", "您的验证码是123456，5分钟内有效。"]],
    links: [],
  },
  { name: "Japanese", mail: { subject: "アカウント", text: "認証コード：482913" }, codes: [["482913", "認証コード：482913"]], links: [] },
  {
    name: "Korean",
    mail: { subject: "계정", text: "[Acme] 인증번호 [482913]을 입력해주세요." },
    codes: [["482913", "[Acme] 인증번호 [482913]을 입력해주세요."]],
    links: [],
  },
  // ---- not codes
  {
    name: "an order number after # or №",
    mail: {
      subject: "Order #482913 confirmed",
      text: "Thanks! Verification of your payment is complete for order # 482913.\nVerify invoice № 5521.",
    },
    codes: [],
    links: [],
  },
  {
    name: "an order number with dashes",
    mail: { subject: "Your order", text: "Use your code at checkout. Order 112-4829133-5567890 has shipped." },
    codes: [],
    links: [],
  },
  {
    name: "an invoice reference",
    mail: { subject: "Invoice", text: "Invoice INV-20261127 for your verification service." },
    codes: [],
    links: [],
  },
  {
    name: "prices with a currency sign",
    mail: { subject: "Receipt", text: "Promo code applied: you paid $1234, not 1299 €.\nVerify: £2500 and EUR 4500." },
    codes: [],
    links: [],
  },
  { name: "a decimal amount", mail: { subject: "Receipt", text: "Your code saved you 1234.56 today." }, codes: [], links: [] },
  {
    name: "dates",
    mail: { subject: "Verification", text: "Verification done on November 2026, Nov 27, 2026, 2026-11-27 and 27/11/2026." },
    codes: [],
    links: [],
  },
  { name: "a Spanish date", mail: { subject: "Verificación", text: "Código enviado el 27 de noviembre de 2026." }, codes: [], links: [] },
  {
    name: "a copyright year in the footer",
    mail: { subject: "Acme", text: "Didn't request this code? Ignore this email.\n© 2026 Acme Inc." },
    codes: [],
    links: [],
  },
  {
    name: "phone numbers",
    mail: { subject: "Acme support", text: "Questions about your code? Call 555-123-4567, (555) 123-4567 or +49 30 1234567." },
    codes: [],
    links: [],
  },
  { name: "a spaced phone number", mail: { subject: "Acme support", text: "Verification help: 555 123 4567" }, codes: [], links: [] },
  {
    name: "a tracking number",
    mail: { subject: "Shipped", text: "Tracking code: 1Z999AA10123456784\nUSPS tracking code: 9400 1000 0000 0000 0000 00" },
    codes: [],
    links: [],
  },
  {
    name: "a code inside a tracking link",
    mail: { subject: "Shipped", text: "Track with your code: https://track.acme.test/t/48291355?ref=5512" },
    codes: [],
    links: [["https://track.acme.test/t/48291355?ref=5512", "", "other"]],
  },
  {
    name: "a code inside an email address",
    mail: { subject: "Acme", text: "Reply with your code to 482913@acme.test" },
    codes: [],
    links: [],
  },
  {
    name: "a code inside a bare domain path",
    mail: { subject: "Acme", text: "Your code lives at acme.com/c/482913 now." },
    codes: [],
    links: [],
  },
  { name: "more than ten digits", mail: { subject: "Acme", text: "Your code 12345678901 is not valid." }, codes: [], links: [] },
  {
    name: "an IP address and a version",
    mail: { subject: "Security alert", text: "Login code requested from 192.168.10.254 using app v2.12345." },
    codes: [],
    links: [],
  },
  { name: "a postcode is not a code", mail: { subject: "Your address", text: "Postcode 10115, Berlin" }, codes: [], links: [] },
  {
    name: "a date in the subject leaves no run",
    mail: { subject: "Meeting on 27 November 2026", text: "See you there." },
    codes: [],
    links: [],
  },
  {
    name: "a year in the subject is its only run (the rule, literally)",
    mail: { subject: "Your 2025 year in review", text: "What a year." },
    codes: [["2025", "Your 2025 year in review"]],
    links: [],
  },
  {
    name: "four digits in parentheses after a word tag the subject (a count or a year), even beside a keyword",
    mail: { subject: "Verify your Acme email (2999)", text: "Thanks for signing up." },
    codes: [],
    links: [],
  },
  {
    name: "four digits in parentheses after a word are no code in the body either",
    mail: { subject: "Acme", text: "Your verification history (1024) is attached. Your code: 4821" },
    codes: [["4821", "our verification history (1024) is attached. Your code: 4821"]],
    links: [],
  },
  {
    name: "four digits in parentheses right after a keyword are a code",
    mail: { subject: "Acme", text: "Your PIN (4821) opens the door." },
    codes: [["4821", "Your PIN (4821) opens the door."]],
    links: [],
  },
  {
    name: "a longer run in parentheses is a code",
    mail: { subject: "Verify your Acme email (482913)", text: "Thanks." },
    codes: [["482913", "Verify your Acme email (482913)"]],
    links: [],
  },
  // ---- links
  {
    name: "verify link from its URL",
    mail: { subject: "Confirm", html: `<p><a href="https://acme.test/email/verify?token=abc123">Click here</a></p>` },
    codes: [],
    links: [["https://acme.test/email/verify?token=abc123", "Click here", "verify"]],
  },
  {
    name: "reset outranks token in the URL",
    mail: { subject: "Reset", html: `<a href="https://acme.test/password/reset?token=abc">Choose a new password</a>` },
    codes: [],
    links: [["https://acme.test/password/reset?token=abc", "Choose a new password", "reset"]],
  },
  {
    name: "magic and login links",
    mail: {
      subject: "Sign in",
      html: `<a href="https://acme.test/auth/magic?t=1">Open</a> <a href="https://acme.test/login?token=2">Open</a>`,
    },
    codes: [],
    links: [
      ["https://acme.test/auth/magic?t=1", "Open", "magic_link"],
      ["https://acme.test/login?token=2", "Open", "magic_link"],
    ],
  },
  {
    name: "the path outranks the query",
    mail: {
      subject: "Acme",
      html: `<a href="https://acme.test/account/verify?next=/password/reset">Go</a> <a href="https://acme.test/login?confirm=1">Go</a>`,
    },
    codes: [],
    links: [
      ["https://acme.test/account/verify?next=/password/reset", "Go", "verify"],
      ["https://acme.test/login?confirm=1", "Go", "magic_link"],
    ],
  },
  {
    name: "the query outranks the anchor text",
    mail: { subject: "Acme", html: `<a href="https://acme.test/go?action=reset">Verify it's you</a>` },
    codes: [],
    links: [["https://acme.test/go?action=reset", "Verify it's you", "reset"]],
  },
  {
    name: "the URL outranks the anchor text",
    mail: { subject: "Acme", html: `<a href="https://acme.test/reset-password/abc">Verify it's you</a>` },
    codes: [],
    links: [["https://acme.test/reset-password/abc", "Verify it's you", "reset"]],
  },
  {
    name: "anchor text judges a tracking link",
    mail: {
      subject: "Acme",
      html: `<a href="https://click.mail.test/ls/click?upn=u001.AbC">Confirm my account</a> <a href="https://click.mail.test/ls/click?upn=u001.XyZ">Unsubscribe</a> <a href="https://click.mail.test/ls/click?upn=u001.Qrs">Sign in to Acme</a>`,
    },
    codes: [],
    links: [
      ["https://click.mail.test/ls/click?upn=u001.AbC", "Confirm my account", "verify"],
      ["https://click.mail.test/ls/click?upn=u001.XyZ", "Unsubscribe", "unsubscribe"],
      ["https://click.mail.test/ls/click?upn=u001.Qrs", "Sign in to Acme", "magic_link"],
    ],
  },
  {
    name: "activate and opt-out",
    mail: {
      subject: "Acme",
      html: `<a href="https://acme.test/account/activate/abc">Go</a> <a href="https://acme.test/preferences/opt-out">Here</a> <a href="https://acme.test/blog/post">Read more</a>`,
    },
    codes: [],
    links: [
      ["https://acme.test/account/activate/abc", "Go", "verify"],
      ["https://acme.test/preferences/opt-out", "Here", "unsubscribe"],
      ["https://acme.test/blog/post", "Read more", "other"],
    ],
  },
  {
    name: "List-Unsubscribe not in the body comes last",
    mail: {
      subject: "News",
      html: `<a href="https://acme.test/news/1">Story</a>`,
      headers: { "List-Unsubscribe": "<mailto:unsub@acme.test?subject=unsubscribe>, <https://acme.test/u/xyz>" },
    },
    codes: [],
    links: [
      ["https://acme.test/news/1", "Story", "other"],
      ["https://acme.test/u/xyz", "", "unsubscribe"],
    ],
  },
  {
    name: "List-Unsubscribe already listed is unsubscribe",
    mail: {
      subject: "News",
      html: `<a href="https://acme.test/u/xyz">Manage preferences</a>`,
      headers: { "list-unsubscribe": "<https://acme.test/u/xyz>" },
    },
    codes: [],
    links: [["https://acme.test/u/xyz", "Manage preferences", "unsubscribe"]],
  },
  {
    name: "only mailto in List-Unsubscribe",
    mail: { subject: "News", text: "Hello", headers: { "list-unsubscribe": "<mailto:unsub@acme.test>" } },
    codes: [],
    links: [],
  },
  {
    name: "text part URLs after hrefs, once each",
    mail: {
      subject: "Acme",
      text: "Verify: https://acme.test/verify?a=1&b=2\nHelp: https://acme.test/help.",
      html: `<a href="https://acme.test/verify?a=1&amp;b=2">Verify</a>`,
    },
    codes: [],
    links: [
      ["https://acme.test/verify?a=1&b=2", "Verify", "verify"],
      ["https://acme.test/help", "", "other"],
    ],
  },
  {
    name: "hrefs that are not http(s) are skipped",
    mail: {
      subject: "Acme",
      html: `<a href="/relative">a</a><a href="mailto:x@acme.test">b</a><a href="tel:+123">c</a><a href="javascript:void(0)">d</a><a href=" https://acme.test/ok ">e</a>`,
    },
    codes: [],
    links: [["https://acme.test/ok", "e", "other"]],
  },
  {
    name: "an image-only anchor takes its alt text",
    mail: { subject: "Acme", html: `<a href="https://click.mail.test/c/1"><img src="https://acme.test/b.png" alt="Confirm email"></a>` },
    codes: [],
    links: [["https://click.mail.test/c/1", "Confirm email", "verify"]],
  },
  {
    name: "the same URL twice keeps its first text",
    mail: { subject: "Acme", html: `<a href="https://acme.test/v/1">Verify now</a><a href="https://ACME.test/v/1">here</a>` },
    codes: [],
    links: [["https://acme.test/v/1", "Verify now", "verify"]],
  },
  {
    name: "text URLs: trailing punctuation and parentheses",
    mail: { subject: "Acme", text: "Sign in (https://acme.test/login?x=1). Or www.acme.test/no-scheme and https://acme.test/path_(1)." },
    codes: [],
    links: [
      ["https://acme.test/login?x=1", "", "magic_link"],
      ["https://acme.test/path_(1)", "", "other"],
    ],
  },
  {
    name: "a magic link mail with a code",
    mail: {
      subject: "Your Acme sign-in link",
      text: "Sign in with this link: https://acme.test/magic/Zx81?exp=600\nor enter the code 728391.",
      html: null,
    },
    codes: [["728391", "tps://acme.test/magic/Zx81?exp=600 or enter the code 728391."]],
    links: [["https://acme.test/magic/Zx81?exp=600", "", "magic_link"]],
  },
];

const input = (m: Row["mail"]): ExtractInput => ({
  subject: m.subject,
  text: m.text ?? null,
  html: m.html ?? null,
  headers: m.headers ?? {},
});

describe("extract", () => {
  it.each(rows.map((r) => [r.name, r] as const))('when the mail is "%s", then it gives exactly its codes and links', (_name, row) => {
    const expected: Extracted = {
      codes: row.codes.map(([value, context]) => ({ value, context })),
      links: row.links.map(([url, text, kind]) => ({ url, text, kind })),
    };
    expect(extract(input(row.mail))).toEqual(expected);
  });

  it("when a mail holds 150 links and a List-Unsubscribe URL, then only the first 100 links are listed", () => {
    const html = Array.from({ length: 150 }, (_, i) => `<a href="https://acme.test/a/${i}">Item ${i}</a>`).join("<br>");
    const { links } = extract({ subject: "Digest", text: null, html, headers: { "list-unsubscribe": "<https://acme.test/unsub>" } });
    expect(links).toHaveLength(100);
    expect(links[0]).toEqual({ url: "https://acme.test/a/0", text: "Item 0", kind: "other" });
    expect(links[99]).toEqual({ url: "https://acme.test/a/99", text: "Item 99", kind: "other" });
  });

  it("when a context would pass 60 characters, then it is cut to 60 around the code", () => {
    const text = `${"word ".repeat(30)}your code is 482913 ${"more ".repeat(30)}`;
    const [code] = extract({ subject: "Acme", text, html: null, headers: {} }).codes;
    expect(code?.context).toHaveLength(60);
    expect(code?.context).toContain("your code is 482913");
  });

  it("when a mail has neither code nor link, then both lists are empty, never null", () => {
    expect(extract({ subject: "", text: null, html: null, headers: {} })).toEqual({ codes: [], links: [] });
  });
});

/**
 * What regular expressions are handed while `fn` runs, counted rather than timed: every execution
 * (exec, test, match, matchAll, replace, split and search all reach `RegExp.prototype.exec` once
 * it is replaced, ours and linkify-it's alike), the longest input one was given, and the characters
 * searched in all (each execution's span from where it starts to the end of its match, or to the
 * end of its input when it found none). Backtracking inside one execution is not seen here; the
 * speed on these bodies is measured in bench/src/extraction.bench.ts.
 */
function regexWork(fn: () => void): { executions: number; longest: number; scanned: number } {
  // the built-in itself, put back below; it is only ever called with its regex as `this`
  const original = Object.getOwnPropertyDescriptor(RegExp.prototype, "exec")?.value as (
    this: RegExp,
    input: string,
  ) => RegExpExecArray | null;
  const work = { executions: 0, longest: 0, scanned: 0 };
  RegExp.prototype.exec = function exec(this: RegExp, input: string) {
    work.executions += 1;
    work.longest = Math.max(work.longest, input.length);
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const found = original.call(this, input);
    // the span searched: up to the end of the match, or to the end of the input when none was found
    work.scanned += found ? found.index + found[0].length - from : input.length - from;
    return found;
  };
  try {
    fn();
  } finally {
    RegExp.prototype.exec = original;
  }
  return work;
}

const HOSTILE: Array<[what: string, unit: string]> = [
  ["a keyword and the same code, repeated", "code 1234 "],
  ["one chunk without spaces", "code:1234,"],
  ["two-digit groups", "12 "],
  ["URLs holding codes", "https://a.test/code/123456 "],
];
const hostile = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length));
const extractBody = (text: string) => () => {
  extract({ subject: "Acme", text, html: null, headers: {} });
};

describe("extract on hostile bodies", () => {
  it.each(HOSTILE)(
    "when the body is %s, 300,000 characters long, then no regular expression is given more than MAX_SCANNED_CHARS of it",
    (_what, unit) => {
      const text = hostile(unit, 300_000);
      const work = regexWork(extractBody(text));
      expect(work.executions).toBeGreaterThan(0);
      expect(work.longest).toBeLessThanOrEqual(MAX_SCANNED_CHARS);
      // and what lies past the bound changes nothing
      expect(extract({ subject: "Acme", text, html: null, headers: {} })).toEqual(
        extract({ subject: "Acme", text: text.slice(0, MAX_SCANNED_CHARS), html: null, headers: {} }),
      );
    },
  );

  it.each(HOSTILE)(
    "when the body is %s, then twice the body (under the bound) costs the regular expressions at most about twice the work",
    (_what, unit) => {
      const once = regexWork(extractBody(hostile(unit, MAX_SCANNED_CHARS / 4)));
      const twice = regexWork(extractBody(hostile(unit, MAX_SCANNED_CHARS / 2)));
      // linear: a rescan from every match (quadratic) would give about four times
      expect(twice.scanned).toBeLessThanOrEqual(2.2 * once.scanned);
      expect(twice.executions).toBeLessThanOrEqual(2.2 * once.executions);
    },
  );
});
