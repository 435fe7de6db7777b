// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DaysInput, SearchInput } from './inputs';
import '../i18n';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('days input', () => {
  it('applies the integer on Enter only', () => {
    const onApply = vi.fn();
    render(<DaysInput value={30} onApply={onApply} label="Days" />);
    const box = screen.getByLabelText('Days') as HTMLInputElement;
    fireEvent.change(box, { target: { value: '7' } });
    expect(onApply).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onApply).toHaveBeenLastCalledWith(7);
    expect(box.value).toBe('7');
  });

  it('shows 1 in the box but applies 0 for a value under 1', () => {
    const onApply = vi.fn();
    render(<DaysInput value={30} onApply={onApply} label="Days" />);
    const box = screen.getByLabelText('Days') as HTMLInputElement;
    expect(box.min).toBe('1');
    fireEvent.change(box, { target: { value: '0' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onApply).toHaveBeenLastCalledWith(0);
    expect(box.value).toBe('1');
  });
});

describe('search input', () => {
  it('is debounced by 300 ms', () => {
    vi.useFakeTimers();
    const onSearch = vi.fn();
    render(<SearchInput value="" onSearch={onSearch} label="Search" />);
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ali' } });
    act(() => vi.advanceTimersByTime(299));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch).toHaveBeenCalledWith('ali');
  });
});
