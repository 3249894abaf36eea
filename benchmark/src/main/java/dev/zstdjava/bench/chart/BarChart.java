package dev.zstdjava.bench.chart;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A grouped bar chart written as PNG (drawn by XChart): one group per x category, one bar per series, optional
 * error bars and a dashed reference line. The one chart writer of the JMH report and the end-to-end report.
 *
 * @param title          chart title
 * @param yLabel         y axis title
 * @param groups         x categories, in order
 * @param series         series names (legend), in order
 * @param values         {@code values[series][group]}; NaN leaves a gap
 * @param errors         {@code errors[series][group]} half-widths drawn as error bars (NaN = none), or null
 * @param reference      a horizontal dashed line at this value (NaN = none), for instance 1.0 for ratios
 * @param referenceLabel what the line means, added to the y axis title (e.g. "C = 1.0"), or null
 * @param percent        the values are fractions: the axis is labelled in percent
 */
public record BarChart(String title, String yLabel, List<String> groups, List<String> series, double[][] values,
                       double[][] errors, double reference, String referenceLabel, boolean percent) {
    /** Tableau's ten colours, as the charts always had. */
    static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
            new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
            new Color(0xbcbd22), new Color(0x17becf)};

    public BarChart {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(yLabel, "yLabel");
        groups = List.copyOf(groups);
        series = List.copyOf(series);
        if (values.length != series.size()) {
            throw new IllegalArgumentException(values.length + " value rows for " + series.size() + " series");
        }
        for (double[] row : values) {
            if (row.length != groups.size()) {
                throw new IllegalArgumentException(row.length + " values for " + groups.size() + " groups");
            }
        }
        if (errors != null && errors.length != values.length) {
            throw new IllegalArgumentException(errors.length + " error rows for " + series.size() + " series");
        }
    }

    /** A chart without error bars. */
    public static BarChart of(String title, String yLabel, List<String> groups, List<String> series,
                              double[][] values, double reference, boolean percent) {
        return new BarChart(title, yLabel, groups, series, values, null, reference, null, percent);
    }

    /** Writes the chart to {@code file} (PNG), creating its folder. */
    public void writePng(Path file) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        BitmapEncoder.saveBitmap(chart(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
        // XChart appends ".png" when the name does not end with it
        if (!file.getFileName().toString().endsWith(".png")) {
            Files.move(Path.of(file + ".png"), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** @return the XChart chart, for other encoders */
    public CategoryChart chart() {
        int groupWidth = Math.max(70, series.size() * 16 + 24);
        // labels turn 45 degrees when the longest (about 7 pixels a character) is wider than its group
        boolean rotate = groups.stream().mapToInt(String::length).max().orElse(0) * 7 > groupWidth;
        int width = Math.max(900, 110 + groupWidth * groups.size());
        int height = 520 + (rotate ? 60 : 0) + 20 * ((series.size() + 5) / 6);
        String axisTitle = referenceLabel == null || Double.isNaN(reference) ? yLabel
                : yLabel + " (dashed line: " + referenceLabel + ")";
        CategoryChart chart = new CategoryChartBuilder().width(width).height(height).title(title)
                .yAxisTitle(axisTitle).build();
        CategoryStyler s = chart.getStyler();
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(false);
        s.setPlotGridVerticalLinesVisible(false);
        s.setPlotGridLinesColor(new Color(0xe0e0e0));
        s.setSeriesColors(PALETTE);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setLegendBorderColor(Color.WHITE);
        s.setAvailableSpaceFill(0.85);
        s.setErrorBarsColor(Color.BLACK);
        s.setErrorBarsColorSeriesColor(false);
        s.setXAxisLabelRotation(rotate ? 45 : 0);
        // each bar's value at its top where there is room (few bars, no error bars in the way)
        s.setLabelsVisible(errors == null && groups.size() * series.size() <= 40);
        s.setLabelsPosition(1.0);
        s.setLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        s.setYAxisDecimalPattern(percent ? "0%" : "0.0#");
        double[] range = range();
        s.setYAxisMin(range[0]);
        s.setYAxisMax(range[1]);
        if (!Double.isNaN(reference)) {
            s.setAnnotationLineColor(Color.BLACK);
            s.setAnnotationLineStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {6f, 4f}, 0f));
            chart.addAnnotation(new AnnotationLine(reference, false, false));
        }
        for (int i = 0; i < series.size(); i++) {
            List<Double> v = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            for (int g = 0; g < groups.size(); g++) {
                double x = values[i][g];
                // XChart takes no null beside error bars: NaN draws no bar (the axis range is set, not computed)
                v.add(errors == null && Double.isNaN(x) ? null : x);
                double err = errors == null ? Double.NaN : errors[i][g];
                e.add(Double.isNaN(x) || Double.isNaN(err) ? 0.0 : err);
            }
            CategorySeries cs = errors == null ? chart.addSeries(series.get(i), groups, v)
                    : chart.addSeries(series.get(i), groups, v, e);
            cs.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Bar);
        }
        return chart;
    }

    /**
     * The y axis: from 0 (or the lowest bar) to just above the highest bar or error bar; error bars taller than twice
     * the highest bar are cut at the top so that one noisy cell does not flatten the others.
     */
    double[] range() {
        double maxBar = Double.isNaN(reference) ? 0 : reference;
        double minBar = 0;
        double maxWhisker = 0;
        for (int i = 0; i < values.length; i++) {
            for (int g = 0; g < values[i].length; g++) {
                double v = values[i][g];
                if (!Double.isNaN(v)) {
                    maxBar = Math.max(maxBar, v);
                    minBar = Math.min(minBar, v);
                    double e = errors == null || Double.isNaN(errors[i][g]) ? 0 : errors[i][g];
                    maxWhisker = Math.max(maxWhisker, v + e);
                }
            }
        }
        double max = Math.min(Math.max(maxBar, maxWhisker), 2 * maxBar);
        max = niceCeil(max <= 0 ? 1 : max * 1.05);
        double min = minBar < 0 ? -niceCeil(-minBar * 1.05) : 0;
        return new double[] {min, max};
    }

    static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }
}
