// The texts of a key's webhooks page (endpoints, their secrets, the delivery log) in English, Polish and German.
import type { Lang } from './i18n.ts';

const en = {
  webhooks: 'Webhooks',
  title: (key: string) => `Webhooks of ${key}`,
  intro: 'Changes of this key’s facility are POSTed to these HTTPS endpoints, signed (Standard Webhooks).',
  noEndpoints: 'No endpoints yet.',
  url: 'URL',
  events: 'Events',
  add: 'Add endpoint',
  active: 'Delivering',
  disabled: {
    gone: 'Disabled: the endpoint answered 410 Gone',
    retries_exhausted: 'Disabled: the last retry failed',
  } as Record<string, string>,
  rotatingUntil: (when: string) => `The previous secret also signs until ${when}`,
  sendTest: 'Send test event',
  rotate: 'Rotate secret',
  enable: 'Enable',
  remove: 'Remove',
  secretTitle: 'The endpoint’s secret',
  copyNow: 'Copy it now: it is shown only once.',
  deliveries: 'Deliveries',
  noDeliveries: 'No deliveries yet.',
  delivery: 'Delivery',
  type: 'Type',
  status: 'Status',
  attempts: 'Attempts',
  nextTry: 'Next try',
  answer: 'Answer',
  replay: 'Replay',
  back: 'Back to the API tab',
};
export type WebhookMessages = typeof en;

const pl: WebhookMessages = {
  webhooks: 'Webhooki',
  title: (key) => `Webhooki klucza ${key}`,
  intro: 'Zmiany obiektu tego klucza są wysyłane (POST) na te adresy HTTPS, podpisane (Standard Webhooks).',
  noEndpoints: 'Nie ma jeszcze adresów.',
  url: 'URL',
  events: 'Zdarzenia',
  add: 'Dodaj adres',
  active: 'Aktywny',
  disabled: {
    gone: 'Wyłączony: adres odpowiedział 410 Gone',
    retries_exhausted: 'Wyłączony: ostatnia próba nie powiodła się',
  },
  rotatingUntil: (when) => `Poprzedni sekret podpisuje też do ${when}`,
  sendTest: 'Wyślij zdarzenie testowe',
  rotate: 'Zmień sekret',
  enable: 'Włącz',
  remove: 'Usuń',
  secretTitle: 'Sekret adresu',
  copyNow: 'Skopiuj go teraz: jest pokazywany tylko raz.',
  deliveries: 'Dostarczenia',
  noDeliveries: 'Nie ma jeszcze dostarczeń.',
  delivery: 'Dostarczenie',
  type: 'Typ',
  status: 'Stan',
  attempts: 'Próby',
  nextTry: 'Następna próba',
  answer: 'Odpowiedź',
  replay: 'Wyślij ponownie',
  back: 'Wróć do karty API',
};

const de: WebhookMessages = {
  webhooks: 'Webhooks',
  title: (key) => `Webhooks von ${key}`,
  intro:
    'Änderungen des Standorts dieses Schlüssels werden signiert (Standard Webhooks) an diese HTTPS-Adressen gesendet.',
  noEndpoints: 'Noch keine Adressen.',
  url: 'URL',
  events: 'Ereignisse',
  add: 'Adresse hinzufügen',
  active: 'Aktiv',
  disabled: {
    gone: 'Deaktiviert: die Adresse antwortete 410 Gone',
    retries_exhausted: 'Deaktiviert: der letzte Versuch schlug fehl',
  },
  rotatingUntil: (when) => `Das vorige Geheimnis signiert auch bis ${when}`,
  sendTest: 'Testereignis senden',
  rotate: 'Geheimnis erneuern',
  enable: 'Aktivieren',
  remove: 'Entfernen',
  secretTitle: 'Das Geheimnis der Adresse',
  copyNow: 'Kopieren Sie es jetzt: es wird nur einmal gezeigt.',
  deliveries: 'Zustellungen',
  noDeliveries: 'Noch keine Zustellungen.',
  delivery: 'Zustellung',
  type: 'Typ',
  status: 'Status',
  attempts: 'Versuche',
  nextTry: 'Nächster Versuch',
  answer: 'Antwort',
  replay: 'Erneut senden',
  back: 'Zurück zum API-Tab',
};

const WEBHOOK_MESSAGES: Record<Lang, WebhookMessages> = { en, pl, de };

export const webhookTexts = (lang: Lang): WebhookMessages => WEBHOOK_MESSAGES[lang];
