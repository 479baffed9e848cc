#!/usr/bin/env python3
"""Writes page-1.json and page-2.json: a challenge's answers page in the exact shape of the
Stack Exchange API 2.3 (/2.3/questions/25557/answers?site=codegolf), made of our own
answers in src/. Page 1 is filter=withbody (`body` HTML), page 2 a filter with
`body_markdown` (HTML-encoded, as the API's safe filter writes it). Run from this directory."""
import base64, html, json, zlib

def src(name):
    return open('src/' + name, encoding='utf-8').read()

def deflate_raw(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()

def tio(language, code):
    state = language.encode() + b'\xff\xff' + code.encode() + b'\xff\xff'
    b64 = base64.b64encode(deflate_raw(state)).decode()
    return 'https://tio.run/##' + b64.replace('+', '@').rstrip('=')

def msgpack_strs(items):
    out = bytes([0x90 | len(items)])
    for s in items:
        b = s.encode()
        if len(b) < 32: out += bytes([0xa0 | len(b)])
        elif len(b) < 256: out += bytes([0xd9, len(b)])
        else: out += bytes([0xda]) + len(b).to_bytes(2, 'big')
        out += b
    return out

def ato(language, code):
    fields = [language, '', '', 'utf-8', code, 'utf-8', '', 'utf-8', '', '', 'utf-8']
    b64 = base64.urlsafe_b64encode(deflate_raw(msgpack_strs(fields))).decode()
    return 'https://ato.pxeger.com/run?1=' + b64.rstrip('=')

def item(answer_id, name, date, **body):
    return dict(owner=dict(account_id=answer_id * 10, reputation=101, user_id=answer_id * 7,
                           user_type='registered', display_name=name,
                           link='https://codegolf.stackexchange.com/users/%d' % (answer_id * 7)),
                is_accepted=False, score=answer_id % 5, last_activity_date=date + 60,
                creation_date=date, answer_id=answer_id, question_id=25557,
                content_license='CC BY-SA 4.0', **body)

def pre(code):
    return '<pre><code>' + html.escape(code, quote=False) + '\n</code></pre>'

py, pl, js, c, rb = src('beasts.py'), src('beasts.pl'), src('beasts.js'), src('beasts.c'), src('beasts.rb')
page1 = dict(items=[
    item(101, 'Ada', 1700000000, body='<h1>Python 3, <s>1180</s> %d bytes</h1>\n\n%s\n\n<p>A plain simulation.</p>\n' % (len(py.rstrip('\n').encode()), pre(py.rstrip('\n')))),
    item(102, 'Bo &amp; Cy', 1700000100, body='<h1><a href="https://www.perl.org/" rel="nofollow noreferrer">Perl 5</a>, 3400 bytes</h1>\n\n%s\n' % pre(pl.rstrip('\n'))),
    item(103, 'Dee', 1700000200, body='<h1>JavaScript (Node.js), %d bytes</h1>\n\n<p><a href="%s" rel="nofollow noreferrer">Try it online!</a></p>\n' % (len(js.rstrip('\n').encode()), tio('javascript-node', js.rstrip('\n')))),
], has_more=True, page=1, quota_max=300, quota_remaining=298)

def indented(code):
    return '\n'.join('    ' + l if l else '' for l in code.rstrip('\n').split('\n'))

def md(text):
    return html.escape(text, quote=True).replace('&#x27;', '&#39;')

page2 = dict(items=[
    item(104, 'Eve', 1700000300, body_markdown=md('# C (gcc), %d bytes\r\n\r\n%s\r\n\r\nBuilt with `gcc -O2`.' % (len(c.rstrip('\n').encode()), indented(c).replace('\n', '\r\n')))),
    item(105, 'Fay', 1700000400, body_markdown=md('# Ruby %d bytes\r\n\r\n```ruby\r\n%s\r\n```' % (len(rb.rstrip('\n').encode()), rb.rstrip('\n').replace('\n', '\r\n')))),
    item(106, 'Gus', 1700000500, body_markdown=md('## Python 3, %d bytes\r\n\r\nThe same simulation, on [Attempt This Online!](%s)' % (len(py.rstrip('\n').encode()), ato('python', py.rstrip('\n'))))),
    item(107, 'Hal', 1700000600, body_markdown=md('# Unobtainium, 5 bytes\r\n\r\n    HHHH!')),
], has_more=False, page=2, quota_max=300, quota_remaining=297)

for name, page in [('page-1.json', page1), ('page-2.json', page2)]:
    with open(name, 'w', encoding='utf-8') as f:
        json.dump(page, f, indent=1, ensure_ascii=False)
        f.write('\n')
