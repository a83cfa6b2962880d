import type { ReactNode } from 'react';

interface StaticTableProps {
  caption: string;
  /** Column headings; each row starts with its own row heading. */
  columns: readonly string[];
  rows: readonly (readonly ReactNode[])[];
}

/**
 * A table in a legal or support text. On a phone it scrolls sideways rather than squeezing the columns; the
 * scrolling box is focusable and named so keyboard and screen-reader users can reach all of it.
 */
export function StaticTable({ caption, columns, rows }: StaticTableProps) {
  return (
    <div
      className={columns.length > 2 ? 'static-table static-table--wide' : 'static-table'}
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([heading, ...cells], row) => (
            <tr key={row}>
              <th scope="row">{heading}</th>
              {cells.map((cell, column) => (
                <td key={column}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
