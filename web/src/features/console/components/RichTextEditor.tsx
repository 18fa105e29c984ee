import { useEffect, useRef } from 'react';
import { linkTarget, TOOLBAR } from '../logic/rich-text';
import styles from './Console.module.css';

interface RichTextEditorProps {
  /** The HTML the editor starts with; later changes come from typing only. */
  initialHtml: string;
  onChange: (html: string) => void;
  label: string;
  describedBy?: string;
  invalid?: boolean;
}

/**
 * A small toolbar (bold, italic, lists, link) over an editable area. What it produces is only a
 * draft: the preview and the server both pass it through the sanitiser.
 */
export function RichTextEditor({ initialHtml, onChange, label, describedBy, invalid }: RichTextEditorProps) {
  const area = useRef<HTMLDivElement>(null);

  // Filled once: writing the HTML back on every keystroke would move the caret.
  useEffect(() => {
    if (area.current) area.current.innerHTML = initialHtml;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the first value seeds the area
  }, []);

  const apply = (command: (typeof TOOLBAR)[number]['command']) => {
    area.current?.focus();
    if (command === 'createLink') {
      const target = linkTarget(window.prompt('Link address (https://…)') ?? '');
      if (!target) return;
      // execCommand: the one editing API every browser has.
      document.execCommand('createLink', false, target);
    } else {
      document.execCommand(command);
    }
    onChange(area.current?.innerHTML ?? '');
  };

  return (
    <div className={styles.editor}>
      <div className={styles.editorBar} role="toolbar" aria-label="Formatting">
        {TOOLBAR.map((tool) => (
          <button
            key={tool.command}
            type="button"
            title={tool.name}
            aria-label={tool.name}
            // Keeps the selection in the text while the button is pressed.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => apply(tool.command)}
          >
            {tool.label}
          </button>
        ))}
      </div>
      <div
        ref={area}
        className={styles.editorArea}
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        tabIndex={0}
        onInput={(event) => onChange(event.currentTarget.innerHTML)}
      />
    </div>
  );
}
