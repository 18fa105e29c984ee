// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { SAFE_HREF, sanitizeHtml } from './sanitize-html';

/** The sanitised fragment, parsed again, for questions about its elements. */
function parse(html: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = sanitizeHtml(html);
  return box;
}

describe('sanitizeHtml', () => {
  it('keeps simple formatting as it is', () => {
    const html =
      '<h3>Title</h3><p>Some <strong>bold</strong>, <em>italic</em> and <u>underlined</u> text<br>next line</p><ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quoted</blockquote>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('gives an empty text for nothing', () => {
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml(undefined)).toBe('');
    expect(sanitizeHtml('')).toBe('');
  });

  it('drops empty paragraphs', () => {
    expect(sanitizeHtml('<p>a</p><p></p><p>&nbsp;</p><p><br></p><p>b</p>')).toBe('<p>a</p><p>b</p>');
  });

  it('unwraps unknown elements and keeps their text', () => {
    expect(sanitizeHtml('<div><section>Hello <font color="red">world</font></section></div>')).toBe('Hello world');
    expect(sanitizeHtml('<table><tbody><tr><td>cell</td></tr></tbody></table>')).toBe('cell');
  });

  it('removes scripts, styles, frames and objects with their content', () => {
    const clean = sanitizeHtml(
      '<p>a</p><script>alert(1)</script><style>p{}</style><iframe src="https://evil.example">x</iframe><object data="x.swf">fallback</object><embed src="x"><p>b</p>',
    );
    expect(clean).toBe('<p>a</p><p>b</p>');
  });

  it('removes every attribute but a safe href', () => {
    expect(
      sanitizeHtml('<p class="x" style="color:red" id="p" data-x="1" aria-label="l" onclick="alert(1)">a</p>'),
    ).toBe('<p>a</p>');
    expect(sanitizeHtml('<img src="x" onerror="alert(1)"><svg onload="alert(1)"></svg>')).toBe('');
  });

  it('opens links to other sites in a new tab that cannot reach back', () => {
    const link = parse('<a href="https://example.com/page" target="_self" rel="opener">site</a>').querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com/page');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(parse('<a href="HTTP://example.com">x</a>').querySelector('a')?.getAttribute('target')).toBe('_blank');
  });

  it('keeps paths on this site, mail and telephone links in place', () => {
    for (const href of ['/news/1', '/documents?tab=my', 'mailto:team@example.com', 'tel:+41123456']) {
      const link = parse(`<a href="${href}" target="_blank">x</a>`).querySelector('a');
      expect(link?.getAttribute('href'), href).toBe(href);
      expect(link?.hasAttribute('target'), href).toBe(false);
      expect(link?.hasAttribute('rel'), href).toBe(false);
    }
  });

  it('refuses protocol-relative links, which lead to another host', () => {
    for (const href of [
      '//evil.example',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      '/ /evil.example',
      '/\t/evil.example',
    ]) {
      const link = parse(`<a href="${href}">x</a>`).querySelector('a');
      expect(link?.textContent, href).toBe('x');
      expect(link?.hasAttribute('href'), href).toBe(false);
      expect(link?.hasAttribute('target'), href).toBe(false);
    }
  });

  it('refuses script and data links in every spelling', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'javascript&colon;alert(1)',
      '&#106;avascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'relative/path',
      '#anchor',
    ]) {
      const link = parse(`<a href="${href}">x</a>`).querySelector('a');
      expect(link?.hasAttribute('href'), href).toBe(false);
    }
  });

  it('keeps text that looks like markup as text', () => {
    expect(sanitizeHtml('<p>1 &lt; 2 &amp;&amp; &lt;script&gt;</p>')).toBe('<p>1 &lt; 2 &amp;&amp; &lt;script&gt;</p>');
  });

  it('survives markup built to confuse parsers', () => {
    const box = parse(
      '<p>a<svg><p><style><img src=x onerror=alert(1)></style></p></svg></p><math><mi><a href="javascript:alert(1)">m</a></mi></math>',
    );
    expect(box.querySelector('img, svg, math, style, [onerror]')).toBeNull();
    expect(box.querySelector('a[href]')).toBeNull();
  });
});

describe('SAFE_HREF', () => {
  it('names the link targets the app keeps', () => {
    expect(SAFE_HREF.test('https://x')).toBe(true);
    expect(SAFE_HREF.test('/x')).toBe(true);
    expect(SAFE_HREF.test('//x')).toBe(false);
    expect(SAFE_HREF.test('/\\x')).toBe(false);
  });
});
