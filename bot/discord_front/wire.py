"""Discord's REST requests with a picture sent as one body, in one write.

discord.py sends a message with files as an ``aiohttp.FormData`` (``payload_json``,
then each file as a ``BytesIO``), built anew for every try. aiohttp turns the form
into a ``MultipartWriter`` of one ``Payload`` per part, each with its own header dict,
and writes the boundary, each part's headers, its bytes and the CRLF after it as
separate sends: about seven a request, each through TLS (asyncio's sslproto) on its
own. That was about 40% of the CPU a request with a picture cost (bench/http_layer.py:
such a request cost 1.35-1.47 ms where a DELETE, with no body, cost 0.8).

:class:`OneBodyRequest` builds the very bytes aiohttp's writer would send (the same
parts, headers, order and boundary format) as one ``BytesPayload``; aiohttp then sends
the request line, the headers and the body in one write. It leaves alone any form it
does not know to the byte (a field that is neither text nor an in-memory ``BytesIO``, a
charset, quoted fields, a body over aiohttp's 1 MiB in-memory limit): those go aiohttp's
own way. :func:`send_forms_in_one_write` puts it on discord.py's session (the one the
webhook adapter uses for interactions too), after checking on a sample form that this
aiohttp writes exactly what :func:`multipart_body` builds; if it does not (another
aiohttp version), nothing changes and it says so in the log. Rate limits, retries and
errors stay discord.py's: only the body of each try is built differently.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import aiohttp
from aiohttp import hdrs
from aiohttp.multipart import MultipartWriter
from aiohttp.payload import TOO_LARGE_BYTES_BODY, BytesPayload
from multidict import MultiDict

log = logging.getLogger(__name__)

#: aiohttp's content type for a text field given without one (``StringPayload``).
TEXT_FIELD_TYPE = "text/plain; charset=utf-8"


def multipart_body(form: aiohttp.FormData) -> tuple[bytes, str] | None:
    """The bytes and Content-Type aiohttp would send for ``form`` (with the boundary
    aiohttp chose for it), or None when the form is not one this knows to the byte.
    Reads each ``BytesIO`` from its position and puts the position back, as aiohttp's
    payload does for a retry; the form itself is left as it was (a form aiohttp has
    already turned into its writer has no fields left: None)."""
    fields = getattr(form, "_fields", None)
    writer = getattr(form, "_writer", None)
    if (type(fields) is not list or not fields or type(writer) is not MultipartWriter or not form.is_multipart
            or getattr(form, "_quote_fields", True) is not False or getattr(form, "_charset", "unknown") is not None):
        return None
    try:
        return _joined(fields, writer)
    except UnicodeEncodeError:  # aiohttp's own way fails on it too, in its own words
        return None


def _joined(fields: list[Any], writer: MultipartWriter) -> tuple[bytes, str] | None:
    dashes = b"--" + writer.boundary.encode("ascii")
    chunks: list[bytes] = []
    size = 0
    for field in fields:
        if type(field) is not tuple or len(field) != 3:
            return None
        options, headers, value = field
        if type(options) is not MultiDict or type(headers) is not dict or len(headers) > 1:
            return None
        content_type = headers.get(hdrs.CONTENT_TYPE)
        if type(value) is str and not headers:
            content_type, data = TEXT_FIELD_TYPE, value.encode("utf-8")
        elif type(value) is io.BytesIO and content_type is not None:
            at = value.tell()
            data = value.read()
            value.seek(at)
        else:
            return None
        name, filename = options.get("name"), options.get("filename")
        if type(name) is not str or len(options) != (1 if filename is None else 2):
            return None
        # FormData checked name, filename and content type for CR/LF when they were added.
        disposition = f'form-data; name="{_escaped(name)}"' if filename is None else \
            f'form-data; name="{_escaped(name)}"; filename="{_escaped(filename)}"'
        chunks += (dashes, b"\r\n", f"Content-Type: {content_type}\r\nContent-Disposition: {disposition}\r\n\r\n".encode("utf-8"),
                   data, b"\r\n")
        size += len(data)
        if size > TOO_LARGE_BYTES_BODY:
            return None  # aiohttp streams a big file in pieces, yielding to the loop between them
    chunks += (dashes, b"--\r\n")
    return b"".join(chunks), writer.headers[hdrs.CONTENT_TYPE]


def _escaped(value: str) -> str:
    """A disposition parameter as aiohttp writes it with ``quote_fields=False``."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


class OneBodyRequest(aiohttp.ClientRequest):
    """aiohttp's request, a form discord.py makes sent as one bytes body (see the module)."""

    def update_body_from_data(self, body: Any, *args: Any, **kwargs: Any) -> None:
        if type(body) is aiohttp.FormData:
            built = multipart_body(body)
            if built is not None:
                data, content_type = built
                body = BytesPayload(data, content_type=content_type)
        super().update_body_from_data(body, *args, **kwargs)


def _discord_form() -> aiohttp.FormData:
    """A form as discord.py makes one: a picture, then payload_json, fields unquoted."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="files[0]", value=io.BytesIO(b"\x89PNG\r\n\x1a\n\x00\xff-- \r\n"), filename='b\\"oard "é".png',
                   content_type="application/octet-stream")
    form.add_field(name="payload_json", value='{"content":"é \\r\\n","attachments":[{"id":0}]}')
    return form


async def writes_as_aiohttp() -> bool:
    """Whether this aiohttp writes a sample of discord.py's forms byte for byte as
    :func:`multipart_body` builds it."""
    try:
        form = _discord_form()
        built = multipart_body(form)  # before aiohttp's writer reads the form
        writer = form()
        return built is not None and built == (await writer.as_bytes(), writer.headers[hdrs.CONTENT_TYPE])
    except Exception:  # another aiohttp's FormData or writer: keep its own path
        log.debug("aiohttp's multipart writer could not be compared", exc_info=True)
        return False


async def send_forms_in_one_write(http: Any) -> bool:
    """Make discord.py's HTTP session (``http``, a logged-in ``discord.http.HTTPClient``)
    send forms as one body. False, and nothing changed, when the session is not a
    stock aiohttp one (SimCord's has none) or this aiohttp writes forms differently."""
    session = getattr(http, "_HTTPClient__session", None)  # discord.py's, made by static_login
    if not isinstance(session, aiohttp.ClientSession) or getattr(session, "_request_class", None) is not aiohttp.ClientRequest:
        return False
    if not await writes_as_aiohttp():
        log.warning("aiohttp %s writes multipart forms differently than Deckhand expects: requests with files are sent "
                    "aiohttp's own way (slower, same meaning).", aiohttp.__version__)
        return False
    session._request_class = OneBodyRequest  # ClientSession(request_class=...), which discord.py does not pass on
    return True
