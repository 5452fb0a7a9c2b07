package io.blobingest.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Rows printed in columns padded to their widest cell; the last column is not padded. */
public final class TextTable {

    private static final String GAP = "  ";

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = List.of(header);
    }

    public void add(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("expected " + header.size() + " cells, found " + cells.length);
        }
        rows.add(List.of(cells));
    }

    public void print(PrintWriter out) {
        int[] widths = new int[header.size()];
        for (List<String> row : allRows()) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : allRows()) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(cell);
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - cell.length())).append(GAP);
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private List<List<String>> allRows() {
        List<List<String>> all = new ArrayList<>(rows.size() + 1);
        all.add(header);
        all.addAll(rows);
        return all;
    }
}
