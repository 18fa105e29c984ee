import { describe, expect, it } from 'vitest';
import { boothOf, showsMapsLink, videoUrl } from './activity';

describe('showsMapsLink', () => {
  it('hides Open in Maps for lunch events and events without an address', () => {
    expect(showsMapsLink({ type: 'workshop', googlemaps: 'https://maps.example.com/?q=a' })).toBe(true);
    expect(showsMapsLink({ type: 'lunch', googlemaps: 'https://maps.example.com/?q=a' })).toBe(false);
    expect(showsMapsLink({ type: 'Lunch', googlemaps: 'https://maps.example.com/?q=a' })).toBe(false);
    expect(showsMapsLink({ type: 'dinner', googlemaps: '' })).toBe(false);
  });
});

describe('videoUrl', () => {
  it('prefers the address, then the code', () => {
    expect(videoUrl({ url: 'https://v.example/1', code: 'x' })).toBe('https://v.example/1');
    expect(videoUrl({ url: null, code: 'mc01hl' })).toBe('https://video.example.com/watch/mc01hl');
    expect(videoUrl({})).toBeNull();
  });
});

describe('boothOf', () => {
  it('finds the booth whatever the company prefix', () => {
    expect(boothOf({ meridian_booth: { description: 'x' } })?.title).toBe('Meridian booth');
    expect(boothOf({ congress_venue: {} })).toBeNull();
    expect(boothOf(null)).toBeNull();
  });
});
