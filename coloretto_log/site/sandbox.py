"""The templates' sandbox: a club's templates (``site --templates``) and the package's are content, never code.

Every page is drawn in Jinja2's :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment`
(autoescaping on): a template reads the values it is given, calls their public
methods that change nothing, and cannot reach Python's insides (an attribute
that starts with ``_``, ``__class__.__mro__``, ``__subclasses__()``,
``self.__init__.__globals__``, ``cycler.__init__``, a method that modifies a
list or dict: a :class:`~jinja2.exceptions.SecurityError`). On top of
Jinja2's own bounds (a ``range`` of at most 100,000), this module bounds
what a template can cost:

* a number: ``**`` whose result would pass :data:`MAX_BITS` bits, ``*`` of
  a text or list past :data:`MAX_LENGTH` items;
* a width in a format (``"%99999999s"``, ``"{:>99999999}"``, ``center``,
  ``ljust``, ``indent``, ``wordwrap``...): at most :data:`MAX_WIDTH`;
* a page: at most :data:`PAGE_LIMIT` characters, and :data:`DEADLINE`
  seconds to draw it: on POSIX a timer (``SIGALRM``, when drawn in the main
  thread) interrupts a template that loops without end; elsewhere (or in
  another thread) the time is checked between the page's parts, so a loop
  that writes is stopped, and one that writes nothing is bounded only by
  the sizes above;
* ``include``, ``import`` and ``extends``: only templates of the folder
  given (and the package's), never a file outside it, even through a link
  (:class:`FolderLoader`).

Each refusal is a :class:`~jinja2.exceptions.SecurityError` (a template
error), which ``pages`` turns into one line naming the template and its line.
"""

from __future__ import annotations

import math
import operator
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import BuiltinMethodType, FrameType, MethodType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

__all__ = ["DEADLINE", "MAX_BITS", "MAX_LENGTH", "MAX_WIDTH", "PAGE_LIMIT", "WORK_LIMIT", "FolderLoader", "Sandbox", "bounded"]

#: The most characters of one page (the package's largest, a long-time player's, are under 1 MB).
PAGE_LIMIT = 20_000_000
#: Seconds to draw one page.
DEADLINE = 10.0
#: The most bits of a number a ``**`` makes.
MAX_BITS = 4096
#: The most items (characters) of a text or list made by ``*``.
MAX_LENGTH = 1_000_000
#: The widest field of a format, ``center``, ``indent``...
MAX_WIDTH = 1000

#: The most characters (or items) all the texts a page's operations make may add up to.
WORK_LIMIT = 200_000_000

_PERCENT = re.compile(r"%[-#0 +(]*(\*|\d+)?(?:\.(\*|\d+))?")  # a printf-style field's width and precision
_BRACE = re.compile(r"\{[^{}]*:[^{}]*?(\d+)(?:\.(\d+))?[^{}]*\}")  # a str.format field's width and precision
_NESTED = re.compile(r"\{[^{}]*:[^{}]*\{")  # a str.format field whose width is another field
_METHODS = (MethodType, BuiltinMethodType)  # what str.format and format_map are
_MADE = (str, Markup, list, tuple)  # what a call's result is counted as (other values pass as they are)
_WIDTH_ARGS = ("center", "ljust", "rjust", "zfill", "expandtabs")  # str methods whose first argument is a width


def _too_wide(fmt: str) -> bool:
    """Whether a format string asks for a field wider (or more precise) than :data:`MAX_WIDTH`, or one given
    as a value (``%*s``, ``{:{}}``)."""
    for m in _PERCENT.finditer(fmt):
        for part in m.groups():
            if part == "*" or (part and int(part) > MAX_WIDTH):
                return True
    if _NESTED.search(fmt):
        return True
    return any(part and int(part) > MAX_WIDTH for m in _BRACE.finditer(fmt) for part in m.groups())


def _refuse_format(fmt: Any) -> None:
    if isinstance(fmt, str) and _too_wide(fmt):
        raise SecurityError(f"a format wider than {MAX_WIDTH} characters, or whose width is a value")


def _check_width(what: str, width: Any) -> None:
    if isinstance(width, int) and not isinstance(width, bool) and abs(width) > MAX_WIDTH:
        raise SecurityError(f"{what}: a width of {width}, more than {MAX_WIDTH}")


class _Generator(CodeGenerator):
    """Jinja2's code generator, with every ``~`` of a template passed through ``Sandbox.bounded_concat``."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.bounded_concat(")
        super().visit_Concat(node, frame)
        self.write(")")


class Sandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox with the bounds of this module: numbers, widths, repeats, and the texts a page's
    operations make (``~``, ``+``, ``*``, ``%``, formats, the filters that make text), each at most
    :data:`MAX_LENGTH` and all together at most :data:`WORK_LIMIT` a page."""

    intercepted_binops = frozenset({"**", "*", "%", "+"})
    code_generator_class = _Generator

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.spent = 0  # what this page's operations made (reset by bounded)
        self._safe: dict[tuple[type, str], bool] = {}  # is_safe_attribute's answers
        self.binop_table = {**self.binop_table, "**": self._power, "*": self._times, "%": self._modulo,
                            "+": self._plus}
        for name in ("center", "indent", "wordwrap", "truncate"):
            self.filters[name] = self._width_filter(name, self.filters[name])
        for name in ("replace", "join", "string", "striptags", "urlize", "tojson", "pprint", "xmlattr", "title",
                     "capitalize", "upper", "lower", "trim", "escape", "e", "forceescape", "safe", "list", "batch",
                     "slice", "map", "select", "reject", "sort", "unique", "reverse", "dictsort", "items"):
            if name in self.filters:
                self.filters[name] = self._made_filter(self.filters[name])
        plain_format = self.filters["format"]

        def format_filter(value: Any, *args: Any, **kwargs: Any) -> Any:
            _refuse_format(value)
            return self.made(plain_format(value, *args, **kwargs))

        self.filters["format"] = format_filter

    # ---- what a page's operations make

    def made(self, value: Any) -> Any:
        """``value``, made by a template: refused when it is a text or list longer than :data:`MAX_LENGTH`, or when
        the page's texts together pass :data:`WORK_LIMIT`."""
        if isinstance(value, (str, list, tuple)):
            if len(value) > MAX_LENGTH:
                raise SecurityError(f"a text or list of {len(value):,} items, more than {MAX_LENGTH:,}")
            self.spent += len(value)
            if self.spent > WORK_LIMIT:
                raise SecurityError(f"the page's texts passed {WORK_LIMIT:,} characters in all")
        return value

    def bounded_concat(self, value: str) -> str:
        """A ``~`` of the templates (the code generator's ``markup_join`` or ``str_join``), bounded."""
        return self.made(value)  # type: ignore[no-any-return]

    def _power(self, base: Any, exp: Any) -> Any:
        whole = isinstance(base, int) and isinstance(exp, int) and abs(base) > 1 and exp > 0
        if whole and exp * math.log2(abs(base)) > MAX_BITS:
            raise SecurityError(f"a number of more than {MAX_BITS} bits ({base} ** {exp})")
        return operator.pow(base, exp)

    def _times(self, a: Any, b: Any) -> Any:
        for seq, n in ((a, b), (b, a)):
            if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_LENGTH:
                raise SecurityError(f"a text or list of more than {MAX_LENGTH:,} items ({len(seq)} × {n})")
        return self.made(operator.mul(a, b))

    def _modulo(self, a: Any, b: Any) -> Any:
        _refuse_format(a)
        return self.made(operator.mod(a, b))

    def _plus(self, a: Any, b: Any) -> Any:
        return self.made(operator.add(a, b))

    def _width_filter(self, name: str, filt: Callable[..., Any]) -> Callable[..., Any]:
        """A built-in filter whose width (its first argument after the value, or ``width``/``length``) is bounded."""

        def run(value: Any, *args: Any, **kwargs: Any) -> Any:
            if args:
                _check_width(name, args[0])
            for key in ("width", "length"):
                if key in kwargs:
                    _check_width(name, kwargs[key])
            return self.made(filt(value, *args, **kwargs))

        return _like(run, filt)

    def _made_filter(self, filt: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            return self.made(filt(*args, **kwargs))

        return _like(run, filt)

    # ---- calls and formats

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        return self.binop_table[operator](left, right)

    def call(self, context: jinja2.runtime.Context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        """A call from a template: a ``str`` method's width bounded, the text it makes counted, then the
        sandbox's own checks."""
        if type(obj) is BuiltinMethodType and isinstance(obj.__self__, str) and obj.__name__ in _WIDTH_ARGS and args:
            _check_width(obj.__name__, args[0])
        if not self.is_safe_callable(obj):  # the sandbox's own call, without a frame more
            raise SecurityError(f"{obj!r} is not safely callable")
        result = context.call(obj, *args, **kwargs)
        return self.made(result) if type(result) in _MADE else result

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """The sandbox's answer (no ``_`` attribute, no internal one, nothing that modifies a value), kept by the
        object's type and the attribute's name, on which alone it depends (asked for at every ``.`` of every
        page: a third of the sandbox's cost)."""
        key = (type(obj), attr)
        found = self._safe.get(key)
        if found is None:
            found = self._safe[key] = super().is_safe_attribute(obj, attr, value)
        return found

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` and ``format_map`` (formatted by the sandbox's safe formatter): a field's width bounded,
        the text made counted."""
        if type(value) not in _METHODS:  # most values a template reads (the fast way out)
            return None
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        _refuse_format(value.__self__)

        def run(*args: Any, **kwargs: Any) -> str:
            return self.made(wrapped(*args, **kwargs))  # type: ignore[no-any-return]

        return run


def _like(run: Callable[..., Any], filt: Callable[..., Any]) -> Callable[..., Any]:
    """``run`` passed what ``filt`` is passed (Jinja2 marks a filter that takes the environment or context)."""
    for attr in ("jinja_pass_arg",):
        if hasattr(filt, attr):
            setattr(run, attr, getattr(filt, attr))
    return run


class FolderLoader(jinja2.FileSystemLoader):
    """A club's folder of templates: a name that leads out of the folder (``..``, an absolute path, a link
    pointing elsewhere) is not found there."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.root = folder.resolve()

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        try:
            inside = Path(filename).resolve().is_relative_to(self.root)
        except (OSError, RuntimeError):
            inside = False
        if not inside:
            raise jinja2.TemplateNotFound(template, f"{template}: outside the templates' folder")
        return source, filename, uptodate


class _Late(Exception):
    """The deadline passed (raised by the timer's handler, turned into a :class:`SecurityError`)."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """A timer that interrupts the block after ``seconds`` (POSIX, main thread); elsewhere nothing."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def late(signum: int, frame: FrameType | None) -> None:
        raise _Late

    previous = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def bounded(template: jinja2.Template, values: Mapping[str, Any]) -> str:
    """``template`` drawn with ``values``, within :data:`PAGE_LIMIT` characters and :data:`DEADLINE` seconds
    (a :class:`SecurityError` beyond either)."""
    limit, seconds = PAGE_LIMIT, DEADLINE
    parts: list[str] = []
    size = 0
    environment = template.environment
    if isinstance(environment, Sandbox):
        environment.spent = 0
    start = time.monotonic()
    try:
        with _deadline(seconds):
            for part in template.generate(values):
                size += len(part)
                if size > limit:
                    raise SecurityError(f"the page passed {limit:,} characters")
                parts.append(part)
                if time.monotonic() - start > seconds:
                    raise _Late
    except _Late as late:  # the template's frames kept: the line it was at is said
        error = SecurityError(f"the page took more than {seconds:g} s to draw (a loop without end?)")
        raise error.with_traceback(late.__traceback__) from None
    return "".join(parts)
