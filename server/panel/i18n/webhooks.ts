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
    revoked_key: 'Stopped: its key is revoked',
  } as Record<string, string>,
  rotatingUntil: (when: string) => `The previous secret also signs until ${when}`,
  sendTest: 'Send test event',
  rotate: 'Rotate secret',
  enable: 'Enable',
  remove: 'Remove',
  secretTitle: 'The endpoint’s secret',
  secretShownOnce:
    'This secret was shown once, on the page after it was made, and cannot be shown again. If it was not copied, rotate the secret.',
  copyNow: 'Copy it now: it is shown only once.',
  deliveries: 'Deliveries',
  noDeliveries: 'No deliveries yet.',
  delivery: 'Delivery',
  type: 'Type',
  status: 'Status',
  attempts: 'Attempts',
  nextTry: 'Next try',
  waitsFor: (id: number) => `after delivery ${id}`,
  notShown: (n: number) =>
    `${n} older ${n === 1 ? 'delivery' : 'deliveries'} not shown (listings webhooks deliveries).`,
  answer: 'Answer',
  replay: 'Replay',
  back: 'Back to the API tab',
  notAdded: 'The endpoint was not added:',
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
    revoked_key: 'Zatrzymany: jego klucz jest unieważniony',
  },
  rotatingUntil: (when) => `Poprzedni sekret podpisuje też do ${when}`,
  sendTest: 'Wyślij zdarzenie testowe',
  rotate: 'Zmień sekret',
  enable: 'Włącz',
  remove: 'Usuń',
  secretTitle: 'Sekret adresu',
  secretShownOnce:
    'Ten sekret pokazano raz, na stronie po jego utworzeniu, i nie można go pokazać ponownie. Jeśli nie został skopiowany, wymień sekret.',
  copyNow: 'Skopiuj go teraz: jest pokazywany tylko raz.',
  deliveries: 'Dostarczenia',
  noDeliveries: 'Nie ma jeszcze dostarczeń.',
  delivery: 'Dostarczenie',
  type: 'Typ',
  status: 'Stan',
  attempts: 'Próby',
  nextTry: 'Następna próba',
  waitsFor: (id) => `po dostarczeniu ${id}`,
  notShown: (n) => `Starsze dostarczenia nie są pokazane: ${n} (listings webhooks deliveries).`,
  answer: 'Odpowiedź',
  replay: 'Wyślij ponownie',
  back: 'Wróć do karty API',
  notAdded: 'Nie dodano adresu:',
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
    revoked_key: 'Gestoppt: sein Schlüssel ist widerrufen',
  },
  rotatingUntil: (when) => `Das vorige Geheimnis signiert auch bis ${when}`,
  sendTest: 'Testereignis senden',
  rotate: 'Geheimnis erneuern',
  enable: 'Aktivieren',
  remove: 'Entfernen',
  secretTitle: 'Das Geheimnis der Adresse',
  secretShownOnce:
    'Dieses Geheimnis wurde einmal gezeigt, auf der Seite nach seiner Erstellung, und kann nicht erneut gezeigt werden. Wurde es nicht kopiert, erneuern Sie das Geheimnis.',
  copyNow: 'Kopieren Sie es jetzt: es wird nur einmal gezeigt.',
  deliveries: 'Zustellungen',
  noDeliveries: 'Noch keine Zustellungen.',
  delivery: 'Zustellung',
  type: 'Typ',
  status: 'Status',
  attempts: 'Versuche',
  nextTry: 'Nächster Versuch',
  waitsFor: (id) => `nach Zustellung ${id}`,
  notShown: (n) =>
    `${n} ältere ${n === 1 ? 'Zustellung' : 'Zustellungen'} nicht gezeigt (listings webhooks deliveries).`,
  answer: 'Antwort',
  replay: 'Erneut senden',
  back: 'Zurück zum API-Tab',
  notAdded: 'Der Endpunkt wurde nicht hinzugefügt:',
};

const WEBHOOK_MESSAGES: Record<Lang, WebhookMessages> = { en, pl, de };

export const webhookTexts = (lang: Lang): WebhookMessages => WEBHOOK_MESSAGES[lang];
