import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { unbrokenPorts } from './LessonPanel';

describe('lesson prose', () => {
  // QA: "The queue on SW1->SW2 stays tiny" broke as "SW1-" / ">SW2" in the side panel.
  it('keeps a port name on one line and the text as written', () => {
    const text = 'The queue on SW1->SW2 stays tiny; SW2->D1 too. No port here - nor here.';
    const html = renderToStaticMarkup(<p>{unbrokenPorts(text)}</p>);
    expect(html).toBe(
      '<p>The queue on <span class="nowrap">SW1-&gt;SW2</span> stays tiny; <span class="nowrap">SW2-&gt;D1</span> too. No port here - nor here.</p>',
    );
    expect(renderToStaticMarkup(<p>{unbrokenPorts('')}</p>)).toBe('<p></p>');
  });
});
