import { describe, expect, it } from 'vitest';
import { axisTickFormat, formatMetricValue, formatOffset, offsetTicks, yAxisMargin, yTickCount } from './axisFormat';

const labels = (ticks: number[], unit: string): string[] => ticks.map(axisTickFormat(ticks, unit));

describe('axis ticks', () => {
  it('move times to the unit that reads best, one unit per axis', () => {
    expect(labels([0, 500, 1000, 1500, 2000], 'ms')).toEqual(['0.0 s', '0.5 s', '1.0 s', '1.5 s', '2.0 s']);
    expect(labels([0, 0.2, 0.4, 0.6], 'ms')).toEqual(['0 µs', '200 µs', '400 µs', '600 µs']);
    expect(labels([0, 20, 40, 60], 'µs')).toEqual(['0 µs', '20 µs', '40 µs', '60 µs']);
    expect(labels([0, 60, 120, 180], 's')).toEqual(['0 min', '1 min', '2 min', '3 min']);
  });
  it('use binary prefixes for sizes and keep /s', () => {
    expect(labels([0, 512, 1024, 1536], 'KiB')).toEqual(['0.0 MiB', '0.5 MiB', '1.0 MiB', '1.5 MiB']);
    expect(labels([0, 2 * 1024 ** 3, 4 * 1024 ** 3], 'B/s')).toEqual(['0 GiB/s', '2 GiB/s', '4 GiB/s']);
  });
  it('use SI prefixes otherwise, never long runs of zeros', () => {
    expect(labels([0, 50_000, 100_000, 150_000], '/s')).toEqual(['0k/s', '50k/s', '100k/s', '150k/s']);
    expect(labels([0, 2_000_000, 4_000_000], '')).toEqual(['0M', '2M', '4M']);
    expect(labels([0, 0.002, 0.004], '')).toEqual(['0.000', '0.002', '0.004']);
    expect(labels([0, 1500, 3000], 'MHz')).toEqual(['0.0k MHz', '1.5k MHz', '3.0k MHz']);
  });
  it('keep neighbouring ticks apart', () => {
    expect(labels([1.1, 1.2, 1.3], '')).toEqual(['1.1', '1.2', '1.3']);
    expect(labels([99.5, 99.75, 100], '%')).toEqual(['99.50%', '99.75%', '100.00%']);
  });
});

describe('one value', () => {
  it.each([
    [1234, 'ms', '1.23 s'],
    [0.75, 'ms', '750 µs'],
    [3 * 1024 ** 2, 'B', '3.00 MiB'],
    [12_345, '/s', '12.3k/s'],
    [87.5, '%', '87.5%'],
    [0, 'ms', '0 ms'],
    [0.00123, '', '0.00123'],
    [-2500, '', '-2.50k'],
    [Number.NaN, 'ms', '–'],
  ])('%d %s → %s', (v, unit, out) => expect(formatMetricValue(v, unit)).toBe(out));
});

describe('axis size', () => {
  it('asks for a tick per 45 px or so', () => {
    expect(yTickCount(258)).toBe(5);
    expect(yTickCount(60)).toBe(3);
    expect(yTickCount(2000)).toBe(10);
  });
  it('makes room for the longest label', () => {
    expect(yAxisMargin(['0 GiB/s', '4 GiB/s'])).toBeGreaterThanOrEqual(7 * 6.6 + 30);
    expect(yAxisMargin(['1,000.00 MiB/s'])).toBeGreaterThan(yAxisMargin(['0 B']));
  });
});

describe('offsets from the capture start', () => {
  it('formats by the span shown', () => {
    expect(formatOffset(250, 1000)).toBe('+250 ms');
    expect(formatOffset(1500, 20_000)).toBe('+1.5 s');
    expect(formatOffset(150_000, 600_000)).toBe('+2 min 30 s');
    expect(formatOffset(3_900_000, 7_200_000)).toBe('+1 h 05 min');
  });
  it('ticks in steps a person counts in', () => {
    expect(offsetTicks(60_000, 4)).toEqual([0, 15_000, 30_000, 45_000, 60_000]);
    expect(offsetTicks(10 * 60_000, 5)).toEqual([0, 120_000, 240_000, 360_000, 480_000, 600_000]);
    expect(offsetTicks(0, 5)).toEqual([0]);
  });
});
