#!/usr/bin/env python3
"""A flow adapter (sut-protocol.md, versions 1 and 2) in Python: report-flows.md written
independently of the Swift code, with the same plantable defects as petspot-example-adapter
(`--list-defects`, `--break NAME[,NAME...]`). `petspot-contracts bench --filter defects` measures
`check --sut` against it with PETSPOT_BENCH_ADAPTER="python3 scripts/python_adapter.py".

Version 2 (`op` submit, tryAgain, cancel) runs the app's submission with urllib: the create and the
photo upload to the question's `baseURL`, each with a timeout of `requestTimeout` seconds and on a
connection of its own, the photo read from `photoPath` at each attempt. No answer at all is the
no-connection alert, an answer other than 201 the something-went-wrong alert. Reports are kept by
the id of their submit question. `--submission-rule later`: after a create answered 201 and its
upload failed, Try Again retries only the upload (the default, `spec`, repeats both).

`--protocol 1` declares that the adapter speaks only version 1: it answers every question of a
higher version with {"v": 1, "id": N, "outcome": "unsupported"} (by default it speaks 2, and answers
a version 3 question that way with "v": 2). `--release 1.0|1.4|2.0` behaves like that build of the
app in the field (sut-protocol.md, "Older builds also differ ..."): 1.0 has only the Missing flow
(a found question answers {"v": V, "id": N, "outcome": "unavailable"}), sends no petName, breed or
age, sends 0.0 and 0.0 when both coordinates are left empty, and speaks version 1 only unless
`--protocol 2` is given; 1.4 sends "status": "MISSING" for both flows; 2.0, the default, is today's
build. `--break` plants defects on top of the release's own, and these protocol breaks:
  crash-on-submit         the submission code crashes on the first version 2 question: an uncaught
                          KeyError traceback (a q["baseUrl"] typo), exit status 1
  banner                  print "PetSpot adapter RELEASE ready" on standard output before the first answer
  wrong-v                 answer every question with "v": 3
  ignore-request-timeout  urllib waits 60 s for an answer whatever the question's requestTimeout
                          (the alert as before once it gives up)
  timeout-in-milliseconds urllib is given the question's requestTimeout as milliseconds (0.3 s becomes
                          0.3 ms): it gives up before any answer comes"""
import base64, datetime, http.client, json, socket, sys, unicodedata, urllib.error, urllib.parse, urllib.request, uuid, zoneinfo

DEFECTS = [  # name, field, boundary class: the same list as Sources/petspot-example-adapter/Defects.swift
    ("chip-keeps-16", "chipNumber", "limit + 1"), ("chip-keeps-14", "chipNumber", "limit"),
    ("chip-unicode-digits", "chipNumber", "look-alike"), ("chip-any-number", "chipNumber", "look-alike"),
    ("chip-scalar-filter", "chipNumber", "look-alike"),
    ("chip-blank-sent", "chipNumber", "empty"), ("phone-min-6", "phone", "limit - 1"), ("phone-min-8", "phone", "limit"),
    ("phone-max-12", "phone", "limit + 1"), ("phone-max-10", "phone", "limit"), ("phone-unicode-digits", "phone", "look-alike"),
    ("phone-scalar-filter", "phone", "look-alike"), ("phone-nfkc", "phone", "look-alike"), ("phone-optional", "phone", "empty"),
    ("caregiver-unchecked", "caregiverPhone", "not a member"), ("caregiver-untrimmed", "caregiverPhone", "whitespace-only"),
    ("caregiver-wide-trim", "caregiverPhone", "invisible-only"), ("caregiver-max-12", "caregiverPhone", "limit + 1"),
    ("email-max-255", "email", "limit + 1"), ("email-max-253", "email", "limit"), ("email-length-before-trim", "email", "padded"),
    ("email-case-folding", "email", "look-alike"), ("email-unicode-letters", "email", "look-alike"),
    ("email-tld-1", "email", "limit - 1"), ("email-optional", "email", "empty"), ("untrimmed-email", "email", "padded"),
    ("email-wide-trim", "email", "padded"), ("latitude-exclusive", "latitude", "limit"),
    ("latitude-rounded", "latitude", "just past the limit"), ("latitude-any-double", "latitude", "not a number"),
    ("latitude-nfkc", "latitude", "look-alike"), ("longitude-limit-90", "longitude", "limit - 1"),
    ("longitude-comma", "longitude", "not a number"), ("longitude-untrimmed", "longitude", "padded"),
    ("age-max-41", "age", "limit + 1"), ("age-min-0", "age", "limit - 1"), ("age-max-39", "age", "limit"),
    ("age-unicode-digits", "age", "look-alike"), ("age-untrimmed-blank", "age", "whitespace-only"),
    ("age-wide-trim", "age", "invisible-only"), ("description-cap-501", "description", "limit + 1"),
    ("description-cap-scalars", "description", "multi-scalar characters"), ("description-trim-before-cap", "description", "padded"),
    ("reward-cap-119", "reward", "limit"), ("reward-cap-utf16", "reward", "multi-scalar characters"),
    ("breed-blank-sent", "breed", "whitespace-only"), ("breed-wide-trim", "breed", "invisible-only"),
    ("petname-untrimmed", "petName", "padded"), ("leak-current-address", "currentAddress", "member"),
    ("photo-cap-plus-one", "photo", "limit + 1"), ("photo-cap-exclusive", "photo", "limit"),
    ("photo-empty-accepted", "photo", "limit - 1"), ("photo-type-case-sensitive", "photo", "member"),
    ("photo-any-image", "photo", "not a member"), ("date-local-today", "lastSeenDate", "day after the latest allowed date"),
    ("date-utc-today", "lastSeenDate", "day after the latest allowed date"), ("date-before-today", "lastSeenDate", "latest allowed date"),
    ("species-optional", "species", "empty"), ("sex-optional", "sex", "empty"), ("status-lowercase", "status", "member"),
    ("leak-caregiver-phone", "caregiverPhone", "member"), ("drop-email", "email", "member"), ("empty-breed", "breed", "empty"),
]
SUBMISSION_DEFECTS = [  # name, field, property, summary: the same as Defects.swift's `submission`
    ("submit-success-despite-upload-failure", "submission", "leaves-flow", "answers submitted once the create answered 201, whatever the upload's outcome"),
    ("submit-timeout-says-went-wrong", "submission", "alert", 'a time-out shows "Something went wrong. Please try again later."'),
    ("submit-server-error-says-no-connection", "submission", "alert", 'a 5xx answer shows "No connection. Please check your network and try again."'),
    ("submit-cancel-clears-optional", "submission", "inputs-kept", "Cancel clears the optional texts (petName, breed, description, reward) and the microchip: the next attempt sends a smaller report"),
    ("submit-retry-drops-microchip", "submission", "inputs-kept", "Try Again leaves the microchip out of the payload (to dodge a 409)"),
    ("submit-retry-stale-password", "submission", "gets-through", "Try Again uploads to the new announcement with the first attempt's password (403 every time)"),
    ("submit-upload-to-first-id", "submission", "leaves-flow", "Try Again uploads the photo to the first attempt's announcement (its id and password), not the new one"),
    ("submit-double-create", "submission", "one-announcement", "every attempt sends the create twice (a double tap not debounced) and uploads to the second"),
    ("submit-upload-answer-needs-body", "submission", "gets-through", "takes the upload's 201 {} for a failure (expects a photoUrl in it): an alert after a successful upload"),
    ("submit-shows-first-password", "submission", "leaves-flow", "after a retry, the submitted answer shows the first attempt's managementPassword"),
    ("submit-retry-untrimmed", "submission", "inputs-kept", "Try Again rebuilds the body from the untrimmed inputs: petName, breed, description, reward and email as typed"),
]
PROTOCOL_BREAKS = ["crash-on-submit", "banner", "wrong-v", "ignore-request-timeout", "timeout-in-milliseconds"]  # not defects: --list-defects leaves them out
RELEASES = {  # name: (has the Found flow, sends petName/breed/age, sends 0.0, 0.0 for an empty location, status by flow, protocol version)
    "1.0": (False, False, True, False, 1),
    "1.4": (True, True, False, False, 2),
    "2.0": (True, True, False, True, 2),
}
USAGE = """usage: python_adapter.py [--release 1.0|1.4|2.0] [--protocol 1|2] [--break NAME[,NAME...]]...
                         [--submission-rule spec|later] [--list-defects]
Answers the flow adapter protocol (sut-protocol.md, versions 1 and 2) on standard input and output.
--release 2.0   (default) today's build
--release 1.4   before "status by flow": sends "status": "MISSING" for both flows
--release 1.0   the first builds: only the Missing flow (a found question answers "unavailable"),
                no petName, breed or age sent, both coordinates left empty sent as 0.0 and 0.0;
                speaks version 1 only
--protocol 1|2  the highest protocol version spoken (default: 1 for --release 1.0, else 2); a question
                of a higher version is answered {"v": SPOKEN, "id": ID, "outcome": "unsupported"}
--break NAME    an app defect (--list-defects prints them; the submission defects have the field
                "submission") or a protocol break: """ + " | ".join(PROTOCOL_BREAKS) + """
--submission-rule spec   (default) Try Again repeats the create and the upload
--submission-rule later  after a create answered 201 and its upload failed, Try Again retries only the upload"""
NO_CONNECTION = "No connection. Please check your network and try again."
WENT_WRONG = "Something went wrong. Please try again later."
WHITE_SPACE = set(range(0x9, 0xE)) | {0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000} | set(range(0x2000, 0x200B))
ZERO_WIDTH = {0x200B, 0x200C, 0x200D, 0x2060}
MB10 = 10 * 1024 * 1024
broken = set()
release = "2.0"

def has(name): return name in broken

def trim(text, wide=False):
    gone = lambda c: ord(c) in WHITE_SPACE or c == "\ufeff" or (wide and ord(c) in ZERO_WIDTH)
    start, end = 0, len(text)
    while start < end and gone(text[start]): start += 1
    while end > start and gone(text[end - 1]): end -= 1
    return text[start:end]

def pictographic(c): return 0x1F000 <= ord(c) <= 0x1FAFF or 0x2600 <= ord(c) <= 0x27BF or c in "\u2764\u00a9\u00ae"

def graphemes(text):
    """Extended grapheme clusters, enough of UAX #29 for what the runner types."""
    if text.isascii() and "\r\n" not in text: return list(text)
    clusters = []
    for c in text:
        cat, o = unicodedata.category(c), ord(c)
        control = (cat in ("Cc", "Zl", "Zp") or (cat == "Cf" and o not in (0x200C, 0x200D))) and c != "\n"
        extend = cat in ("Mn", "Me", "Mc") or o in (0x200C, 0x200D) or 0x1F3FB <= o <= 0x1F3FF or 0xFE00 <= o <= 0xFE0F
        if clusters and not control:
            last = clusters[-1]
            lc = unicodedata.category(last[-1])
            last_control = (lc in ("Cc", "Zl", "Zp") or (lc == "Cf" and ord(last[-1]) not in (0x200C, 0x200D)))
            if last == "\r" and c == "\n" or (extend and not last_control) \
                    or (last[-1] == "\u200d" and pictographic(c) and pictographic(last[0])) \
                    or (0x1F1E6 <= o <= 0x1F1FF and len(last) == 1 and 0x1F1E6 <= ord(last) <= 0x1F1FF):
                clusters[-1] += c
                continue
        clusters.append(c)
    return clusters

def ascii_digit(g): return len(g) == 1 and "0" <= g <= "9"
def any_digit(g): return len(g) == 1 and unicodedata.decimal(g, None) is not None
def any_number(g): return g[0].isnumeric()  # Swift's Character.isNumber: the first scalar has a numeric type

def chip_digits(typed):
    limit = 16 if has("chip-keeps-16") else 14 if has("chip-keeps-14") else 15
    units = list(typed) if has("chip-scalar-filter") else graphemes(typed)
    kept = [g for g in units if ascii_digit(g) or (has("chip-unicode-digits") and any_digit(g))
            or (has("chip-any-number") and any_number(g))]
    return "".join(kept[:limit])

def phone_kept(typed, caregiver):
    mine = not caregiver
    if mine and has("phone-nfkc"): typed = unicodedata.normalize("NFKC", typed)
    units = list(typed) if mine and has("phone-scalar-filter") else graphemes(typed)
    return "".join(g for g in units if g == "+" or ascii_digit(g) or (mine and has("phone-unicode-digits") and any_digit(g)))

def phone_valid(typed, caregiver):
    digits = len(phone_kept(typed, caregiver).replace("+", ""))
    low, high = 7, 11
    if not caregiver:
        low = 6 if has("phone-min-6") else 8 if has("phone-min-8") else 7
        high = 12 if has("phone-max-12") else 10 if has("phone-max-10") else 11
    elif has("caregiver-max-12"):
        high = 12
    return low <= digits <= high

def address_ok(address):
    loose = has("email-unicode-letters")
    letter = lambda g: (len(g) == 1 and g.isascii() and g.isalpha()) or (loose and g.isalpha())
    alnum = lambda g: letter(g) or ascii_digit(g) or (loose and g.isdigit())
    chars = graphemes(address)
    if "@" not in chars: return False
    at = chars.index("@")
    local, domain = chars[:at], chars[at + 1:]
    if not local or not all(alnum(g) or g in "._%+-" for g in local): return False
    if not all(alnum(g) or g in ".-" for g in domain) or "." not in domain: return False
    dot = len(domain) - 1 - domain[::-1].index(".")
    tld = domain[dot + 1:]
    return dot > 0 and len(tld) >= (1 if has("email-tld-1") else 2) and all(letter(g) for g in tld)

def email_valid(typed):
    trimmed = trim(typed, has("email-wide-trim"))
    limit = 255 if has("email-max-255") else 253 if has("email-max-253") else 254
    if len(graphemes(typed if has("email-length-before-trim") else trimmed)) > limit: return False
    return address_ok(trimmed.lower().upper() if has("email-case-folding") else trimmed)

def plain_decimal(t):
    i, n, mantissa = 0, len(t), 0
    if i < n and t[i] in "+-": i += 1
    while i < n and t[i] in "0123456789": i += 1; mantissa += 1
    if i < n and t[i] == ".":
        i += 1
        while i < n and t[i] in "0123456789": i += 1; mantissa += 1
    if mantissa == 0: return False
    if i < n and t[i] in "eE":
        i += 1
        if i < n and t[i] in "+-": i += 1
        start = i
        while i < n and t[i] in "0123456789": i += 1
        if i == start: return False
    return i == n

def coordinate(typed, latitude):
    text = typed if (not latitude and has("longitude-untrimmed")) else trim(typed)
    if latitude and has("latitude-nfkc"): text = unicodedata.normalize("NFKC", text)
    if not latitude and has("longitude-comma"): text = text.replace(",", ".")
    if not plain_decimal(text):
        if not (latitude and has("latitude-any-double")): return None
        try: value = float.fromhex(text) if "0x" in text.lower() else float(text)
        except ValueError: return None
    else:
        value = float(text)
    if value != value or value in (float("inf"), float("-inf")): return None
    bound = 90 if latitude or has("longitude-limit-90") else 180
    checked = round(value, 5) if latitude and has("latitude-rounded") else value
    if latitude and has("latitude-exclusive"): return value if abs(checked) < bound else None
    return value if abs(checked) <= bound else None

def age(typed):
    text = typed if has("age-untrimmed-blank") else trim(typed, has("age-wide-trim"))
    if text == "": return True, None
    value = 0
    for g in graphemes(text):
        if not (ascii_digit(g) or (has("age-unicode-digits") and any_digit(g))): return False, None
        value = min(value * 10 + unicodedata.decimal(g), 1000)
    low = 0 if has("age-min-0") else 1
    high = 41 if has("age-max-41") else 39 if has("age-max-39") else 40
    return (True, value) if low <= value <= high else (False, None)

def capped(text, cap, scalars=False, utf16=False):
    if scalars: return text[:cap]
    if utf16: return text.encode("utf-16-le", "surrogatepass")[:2 * cap].decode("utf-16-le", "replace")
    return "".join(graphemes(text)[:cap])

def optional_text(typed, field):
    if typed is None: return None
    shown = typed
    if field == "description":
        if has("description-trim-before-cap"): shown = trim(shown)
        shown = capped(shown, 501 if has("description-cap-501") else 500, scalars=has("description-cap-scalars"))
    elif field == "reward":
        shown = capped(shown, 119 if has("reward-cap-119") else 120, utf16=has("reward-cap-utf16"))
    trimmed = trim(shown, field == "breed" and has("breed-wide-trim"))
    if trimmed == "": return shown if field == "breed" and has("breed-blank-sent") and shown else None
    return shown if field == "petName" and has("petname-untrimmed") else trimmed

def photo_valid(photo):
    if not isinstance(photo, dict): return False
    kind, size = photo.get("mimeType", ""), photo.get("byteCount", -1)
    if has("photo-any-image"): ok = kind.lower().startswith("image/")
    elif has("photo-type-case-sensitive"): ok = kind in ("image/png", "image/jpeg")
    else: ok = kind.lower() in ("image/png", "image/jpeg")
    high = MB10 + 1 if has("photo-cap-plus-one") else MB10 - 1 if has("photo-cap-exclusive") else MB10
    return ok and (0 if has("photo-empty-accepted") else 1) <= size <= high

def date_valid(picked, zone, now):
    if not picked: return False
    local = now.astimezone(zoneinfo.ZoneInfo(zone)).date().isoformat()
    utc = now.astimezone(datetime.timezone.utc).date().isoformat()
    latest = local if has("date-local-today") else utc if has("date-utc-today") else min(local, utc)
    return picked < latest if has("date-before-today") else picked <= latest

def answer(q):
    has_found_flow, sends_name_breed_age, zero_for_empty_location, status_by_flow, _ = RELEASES[release]
    missing, inputs = q["flow"] == "missing", {k: v for k, v in q["inputs"].items() if v is not None}
    if not missing and not has_found_flow: return {"outcome": "unavailable"}
    now = datetime.datetime.fromisoformat(q["context"]["now"].replace("Z", "+00:00"))
    details, contact = ("description", "contactDetails") if missing else ("petDetails", "contactInfo")
    invalid = {}
    refuse = lambda step, field: invalid.setdefault(step, []).append(field)
    if not photo_valid(inputs.get("photo")): refuse("photo", "photo")
    date = inputs.get("lastSeenDate")
    if not date_valid(date, q["context"]["timeZone"], now): refuse(details, "lastSeenDate")
    species, sex = inputs.get("species"), inputs.get("sex")
    if species is None and not has("species-optional"): refuse(details, "species")
    if sex is None and not has("sex-optional"): refuse(details, "sex")
    age_value = None
    if missing and "age" in inputs:
        ok, age_value = age(inputs["age"])
        if not ok: refuse(details, "age")
    typed_lat, typed_lng = inputs.get("latitude", ""), inputs.get("longitude", "")
    if zero_for_empty_location and trim(typed_lat) == "" and trim(typed_lng) == "": lat, lng = 0.0, 0.0
    else: lat, lng = coordinate(typed_lat, True), coordinate(typed_lng, False)
    if lat is None: refuse(details, "latitude")
    if lng is None: refuse(details, "longitude")
    phone, email = inputs.get("phone", ""), inputs.get("email", "")
    if not phone_valid(phone, False) and not (has("phone-optional") and phone == ""): refuse(contact, "phone")
    if not email_valid(email) and not (has("email-optional") and email == ""): refuse(contact, "email")
    if not missing and "caregiverPhone" in inputs and not has("caregiver-unchecked"):
        typed = inputs["caregiverPhone"]
        checked = typed if has("caregiver-untrimmed") else trim(typed, has("caregiver-wide-trim"))
        if checked and not phone_valid(typed, True): refuse(contact, "caregiverPhone")
    for step in (["chipNumber"] if missing else []) + ["photo", details, contact]:
        if step in invalid: return {"outcome": "blocked", "step": step, "fields": invalid[step]}
    p = {}
    for key, value in (("species", species), ("sex", sex), ("lastSeenDate", date), ("locationLatitude", lat), ("locationLongitude", lng)):
        if value is not None: p[key] = value
    if email and not has("drop-email"): p["email"] = email if has("untrimmed-email") else trim(email, has("email-wide-trim"))
    if phone_kept(phone, False): p["phone"] = phone_kept(phone, False)
    status = "MISSING" if missing or not status_by_flow else "FOUND"
    p["status"] = status.lower() if has("status-lowercase") else status
    if "chipNumber" in inputs and (chip_digits(inputs["chipNumber"]) or has("chip-blank-sent")): p["microchipNumber"] = chip_digits(inputs["chipNumber"])
    if sends_name_breed_age:
        for field in (["petName"] if missing else []) + ["breed"]:
            text = optional_text(inputs.get(field), field)
            if text is not None: p[field] = text
        if "breed" not in p and has("empty-breed"): p["breed"] = ""
        if missing and age_value is not None: p["age"] = age_value
    for field in ["description"] + (["reward"] if missing else []):
        text = optional_text(inputs.get(field), field)
        if text is not None: p[field] = text
    if not missing and has("leak-caregiver-phone") and "caregiverPhone" in inputs: p["caregiverPhone"] = inputs["caregiverPhone"]
    if not missing and has("leak-current-address") and "currentAddress" in inputs: p["currentAddress"] = capped(inputs["currentAddress"], 500)
    return {"outcome": "submitted", "payload": p}

class Failure(Exception):
    """A request of the submission that failed: no answer (`timed_out` when its time-out passed
    first), an answer with `status` other than 201, or a 201 without what the app reads."""
    def __init__(self, status=None, timed_out=False, unreadable=False):
        super().__init__(status)
        self.status, self.timed_out, self.unreadable = status, timed_out, unreadable

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args): return None  # a 3xx is an answer other than 201

OPENER = urllib.request.build_opener(NoRedirect)

def send(url, body, headers, timeout):
    """POST `body` to `url` on a connection of its own; (status, answer body) or a Failure."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with OPENER.open(request, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:  # an answer, with a status urllib calls an error
        error.close()
        return error.code, b""
    except urllib.error.URLError as error:
        raise Failure(timed_out=isinstance(error.reason, (socket.timeout, TimeoutError))) from None
    except (socket.timeout, TimeoutError):
        raise Failure(timed_out=True) from None
    except (ConnectionError, http.client.HTTPException, OSError):
        raise Failure() from None

class Service:
    """The app's API client for the two requests of a submission, against `base_url`."""
    def __init__(self, base_url, timeout):
        self.base_url, self.timeout = base_url.rstrip("/"), timeout

    def create(self, payload):
        status, body = send(self.base_url + "/api/v1/announcements", json.dumps(payload).encode(),
                            {"Content-Type": "application/json"}, self.timeout)
        if status != 201: raise Failure(status=status)
        try:
            created = json.loads(body)
            announcement, password = created["id"], created["managementPassword"]
        except (ValueError, KeyError, TypeError):
            raise Failure(unreadable=True) from None
        if not isinstance(announcement, str) or not isinstance(password, str): raise Failure(unreadable=True)
        return announcement, password

    def upload(self, photo, target):
        announcement, password = target
        file_name, mime_type, data = photo
        boundary = "PetSpotBoundary-" + uuid.uuid4().hex
        quoted = file_name.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{quoted}\"\r\n"
                f"Content-Type: {mime_type}\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        credentials = base64.b64encode(f"{announcement}:{password}".encode()).decode()
        status, answer = send(f"{self.base_url}/api/v1/announcements/{urllib.parse.quote(announcement, safe='')}/photos", body,
                              {"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Basic {credentials}"},
                              self.timeout)
        if status != 201: raise Failure(status=status)
        if has("submit-upload-answer-needs-body"):
            try: url = json.loads(answer).get("photoUrl")
            except (ValueError, AttributeError): url = None
            if not isinstance(url, str): raise Failure(unreadable=True)

reports = {}  # submit question id -> the report on its screen
rule = "spec"

def alert(failure):
    if failure.status is None and not failure.unreadable:
        return WENT_WRONG if failure.timed_out and has("submit-timeout-says-went-wrong") else NO_CONNECTION
    if failure.status is not None and failure.status >= 500 and has("submit-server-error-says-no-connection"): return NO_CONNECTION
    return WENT_WRONG

def untrimmed(payload, q):
    """The planted defect submit-retry-untrimmed: the body rebuilt from the inputs as typed, the texts
    it carries not trimmed (the screen's caps still apply)."""
    rebuilt = dict(payload)
    for key in ("petName", "breed", "description", "reward", "email"):
        typed = q["inputs"].get(key)
        if key in rebuilt and isinstance(typed, str):
            rebuilt[key] = capped(typed, 500) if key == "description" else capped(typed, 120) if key == "reward" else typed
    return rebuilt

def attempt(report):
    """One attempt: the create (unless the later rule retries only the upload), then the upload."""
    report["attempts"] += 1
    retry = report["attempts"] > 1
    try:
        with open(report["photoPath"], "rb") as file: data = file.read()
    except OSError as error:
        sys.exit(f"python_adapter: report {report['id']}: photoPath {report['photoPath']!r} cannot be read: {error}")
    photo_input = report["question"]["inputs"].get("photo") or {}
    photo = (photo_input.get("fileName", "photo"), photo_input.get("mimeType", "application/octet-stream"), data)
    service = report["service"]
    if rule == "later" and report["pending"] is not None:
        created = report["pending"]
    else:
        payload = dict(report["payload"])
        if retry and has("submit-retry-drops-microchip"): payload.pop("microchipNumber", None)
        if retry and has("submit-retry-untrimmed"): payload = untrimmed(payload, report["question"])
        try:
            if has("submit-double-create"):
                try: service.create(payload)
                except Failure: pass
            created = service.create(payload)
        except Failure as failure:
            return {"outcome": "alert", "message": alert(failure)}
        if report["first"] is None: report["first"] = created
    target = created
    if retry and report["first"] is not None:
        if has("submit-upload-to-first-id"): target = report["first"]
        elif has("submit-retry-stale-password"): target = (created[0], report["first"][1])
    try:
        service.upload(photo, target)
    except Failure as failure:
        report["pending"] = created
        if has("submit-success-despite-upload-failure"): return {"outcome": "submitted", "managementPassword": created[1]}
        return {"outcome": "alert", "message": alert(failure)}
    report["pending"] = None
    shown = report["first"] if retry and has("submit-shows-first-password") and report["first"] is not None else created
    return {"outcome": "submitted", "managementPassword": shown[1]}

def answer_v2(q):
    if has("crash-on-submit"): q["baseUrl"]  # the planted typo (the key is baseURL): its KeyError is never caught
    op = q.get("op")
    if op == "submit":
        url, timeout, path = q.get("baseURL"), q.get("requestTimeout"), q.get("photoPath")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")): sys.exit(f"python_adapter: question {q['id']}: baseURL is not an http URL")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
            sys.exit(f"python_adapter: question {q['id']}: requestTimeout is not a number of seconds above 0")
        if not isinstance(path, str) or not path: sys.exit(f"python_adapter: question {q['id']}: photoPath is not a path")
        flow = answer(q)
        if flow["outcome"] != "submitted": return flow
        timeout = 60.0 if has("ignore-request-timeout") else float(q["requestTimeout"]) / (1000 if has("timeout-in-milliseconds") else 1)
        report = {"id": q["id"], "question": q, "payload": flow["payload"], "photoPath": q["photoPath"],
                  "service": Service(q["baseURL"], timeout), "attempts": 0, "first": None, "pending": None}
        reports[q["id"]] = report
        return attempt(report)
    if op in ("tryAgain", "cancel"):
        report = reports.get(q.get("report"))
        if report is None: sys.exit(f"python_adapter: question {q['id']}: report {q.get('report')} is not a submit question that reached the submission")
        if op == "tryAgain": return attempt(report)
        if has("submit-cancel-clears-optional"):
            cleared = dict(report["question"], inputs={k: v for k, v in report["question"]["inputs"].items()
                                                       if k not in ("petName", "breed", "description", "reward", "chipNumber")})
            flow = answer(cleared)
            if flow["outcome"] == "submitted": report["question"], report["payload"] = cleared, flow["payload"]
        return {"outcome": "cancelled"}
    sys.exit(f"python_adapter: question {q.get('id')}: op must be submit, tryAgain or cancel")

def take(args, flag, choices):
    """The value after `flag` (removed with it), None when the flag is not given."""
    if flag not in args: return None
    i = args.index(flag)
    if i + 1 >= len(args) or args[i + 1] not in choices:
        sys.exit(f"python_adapter: {flag} needs one of {', '.join(choices)}" + (f", not {args[i + 1]!r}" if i + 1 < len(args) else "") + "\n" + USAGE)
    value = args[i + 1]
    del args[i:i + 2]
    return value

def integer(value): return isinstance(value, int) and not isinstance(value, bool)

def main(args):
    global rule, release
    if "--help" in args or "-h" in args:
        print(USAGE)
        return
    if "--list-defects" in args:
        for name, field, kind in DEFECTS: print(f"{name}\t{field}\t{kind}")
        for name, field, kind, summary in SUBMISSION_DEFECTS: print(f"{name}\t{field}\t{kind}\t{summary}")
        return
    known = {name for name, _, _ in DEFECTS} | {name for name, _, _, _ in SUBMISSION_DEFECTS} | set(PROTOCOL_BREAKS)
    while "--break" in args:
        i = args.index("--break")
        if i + 1 >= len(args): sys.exit("python_adapter: --break needs a NAME\n" + USAGE)
        for name in args[i + 1].replace(",", " ").split():
            if name not in known: sys.exit(f"python_adapter: unknown defect {name}")
            broken.add(name)
        del args[i:i + 2]
    rule = take(args, "--submission-rule", ["spec", "later"]) or rule
    release = take(args, "--release", list(RELEASES)) or release
    spoken = int(take(args, "--protocol", ["1", "2"]) or RELEASES[release][4])
    if args: sys.exit(f"python_adapter: unexpected argument {args[0]!r}\n" + USAGE)
    def emit(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    if has("banner"): emit(f"PetSpot adapter {release} ready")
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8")
        if not line.strip(): continue
        q = json.loads(line)
        if not isinstance(q, dict): sys.exit("python_adapter: question is not a JSON object")
        version, ident = q.get("v"), q.get("id")
        if not integer(version) or version < 1: sys.exit(f"python_adapter: question's \"v\" is {json.dumps(version)}, not a protocol version (1, 2, ...)")
        if not integer(ident): sys.exit("python_adapter: question has no integer id")
        if version > spoken: version, outcome = spoken, {"outcome": "unsupported"}
        elif version == 2: outcome = answer_v2(q)
        else: outcome = answer(q)
        emit(json.dumps({"v": 3 if has("wrong-v") else version, "id": ident, **outcome}))

if __name__ == "__main__":
    main(sys.argv[1:])
