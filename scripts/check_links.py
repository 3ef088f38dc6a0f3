#!/usr/bin/env python3
"""Checks the relative links of the built guide and of Markdown files.

Usage: scripts/check_links.py HTML_DIR [FILE.md ...]

Every relative link of every page under HTML_DIR (the built mdBook) and of
each Markdown file given must name a file or folder that exists, and its
`#anchor`, if any, must be an id of the target page (for a Markdown target:
one of its headings, spelt as GitHub and mdBook spell them). External links
(http, https, mailto, ...) are not fetched. Standard library only.

Prints one line per broken link and exits 1 if there is any.
"""

import html.parser
import os
import re
import sys
import urllib.parse

EXTERNAL = ("http:", "https:", "mailto:", "ftp:", "javascript:", "data:", "tel:")


class Page(html.parser.HTMLParser):
    """The ids and the links of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if tag in ("a", "img", "link", "script") and attrs.get(key):
                self.links.append((self.getpos()[0], attrs[key]))


def slug(heading):
    """A heading's anchor as GitHub and mdBook make it."""
    text = re.sub(r"<[^>]*>", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links keep their text
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def markdown_parts(path):
    """(anchors, links) of a Markdown file: heading slugs and (line, target)."""
    anchors, links, seen = set(), [], {}
    fence = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            stripped = line.lstrip()
            marker = re.match(r"(```+|~~~+)", stripped)
            if marker:
                if fence is None:
                    fence = marker.group(1)
                elif stripped.startswith(fence):
                    fence = None
                continue
            if fence is not None:
                continue
            heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading:
                base = slug(heading.group(1).replace("`", ""))
                count = seen.get(base, 0)
                seen[base] = count + 1
                anchors.add(base if count == 0 else f"{base}-{count}")
            text = re.sub(r"`[^`]*`", "", line)  # code spans hold no links
            for target in re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text):
                links.append((number, target))
            for target in re.findall(r"""<a\s[^>]*href=["']([^"']+)["']""", text):
                links.append((number, target))
    return anchors, links


class Checker:
    def __init__(self):
        self.pages = {}
        self.errors = []

    def anchors_of(self, path):
        path = os.path.normpath(path)
        if path not in self.pages:
            if path.endswith((".html", ".htm")):
                page = Page()
                with open(path, encoding="utf-8") as f:
                    page.feed(f.read())
                self.pages[path] = (page.ids, page.links)
            elif path.endswith(".md"):
                self.pages[path] = markdown_parts(path)
            else:
                self.pages[path] = (None, [])
        return self.pages[path][0]

    def links_of(self, path):
        self.anchors_of(path)
        return self.pages[os.path.normpath(path)][1]

    def check_file(self, path):
        for line, link in self.links_of(path):
            problem = self.check_link(path, link)
            if problem:
                self.errors.append(f"{path}:{line}: broken link `{link}`: {problem}")

    def check_link(self, source, link):
        if link.lower().startswith(EXTERNAL) or link.startswith("//"):
            return None
        parts = urllib.parse.urlsplit(link)
        if parts.scheme:
            return None
        target_path = urllib.parse.unquote(parts.path)
        if target_path.startswith("/"):
            return "an absolute path: links must be relative"
        if target_path:
            target = os.path.normpath(os.path.join(os.path.dirname(source), target_path))
        else:
            target = source
        if not os.path.exists(target):
            return f"{target} does not exist"
        if os.path.isdir(target):
            index = os.path.join(target, "index.html")
            if parts.fragment and os.path.exists(index):
                target = index
            elif parts.fragment:
                return f"{target} is a folder: it has no #{parts.fragment}"
            else:
                return None
        if parts.fragment:
            anchors = self.anchors_of(target)
            if anchors is None:
                return f"{target} is not a page with anchors"
            fragment = urllib.parse.unquote(parts.fragment)
            if fragment not in anchors:
                return f"{target} has no anchor #{fragment}"
        return None


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    html_dir, markdown = argv[1], argv[2:]
    if not os.path.isdir(html_dir):
        print(f"check_links: {html_dir} is not a folder (build the guide first)", file=sys.stderr)
        return 2
    checker = Checker()
    pages = 0
    for root, _, files in os.walk(html_dir):
        for name in sorted(files):
            if name.endswith(".html") and name != "404.html":
                checker.check_file(os.path.join(root, name))
                pages += 1
    for path in markdown:
        checker.check_file(path)
    for error in checker.errors:
        print(error, file=sys.stderr)
    if checker.errors:
        print(f"check_links: {len(checker.errors)} broken link(s)", file=sys.stderr)
        return 1
    print(f"check_links: {pages} pages and {len(markdown)} Markdown files, every relative link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
