/**
 * The check-in calls of spec 7 (`api/SchedulingLocalCheckIn/...`,
 * `api/Auth/viewer-checkin`, `api/Auth/biometric-viewer-checkin`); query keys
 * live in these factories only. The 300 s timeouts of spec 9 come from the
 * API client's table (LONG_TIMEOUT_PATHS).
 */
import type {
  BiometricViewerCheckinResponse,
  CheckInConfig,
  CheckInExamPage,
  CheckInPage,
  CheckInRecord,
  CheckInRequest,
  CheckInResponse,
  CheckOutRequest,
  ForceCloseRequest,
  MyOpenCheckIn,
  UnitSettings,
  UnitSettingsUpdate,
  UpdateCheckInRequest,
  ViewerCheckinResponse,
} from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { type Capture } from '../../../lib/face-capture';
import { getDeviceId } from '../../../lib/storage';

export { requestFaceChallenge } from '../../../lib/face-challenge';

export const checkInKeys = {
  all: ['check-ins'] as const,
  config: (unit: string) => ['check-ins', 'config', unit] as const,
  mine: ['check-ins', 'mine'] as const,
  record: (id: string) => ['check-ins', 'record', id] as const,
  exams: (id: string, page: number, pageSize: number) =>
    ['check-ins', 'exams', id, page, pageSize] as const,
  search: (params: CheckInSearchParams) => ['check-ins', 'search', params] as const,
  unitSettings: ['check-ins', 'unit-settings'] as const,
};

export function checkInConfigQuery(unit: string) {
  return queryOptions({
    queryKey: checkInKeys.config(unit),
    queryFn: ({ signal }) =>
      api.get<CheckInConfig>('api/SchedulingLocalCheckIn/getConfig', {
        query: { federativeUnit: unit },
        signal,
      }),
    staleTime: 10 * 60_000,
  });
}

/**
 * The signed-in examiner's open records, from the server: the room screen and
 * the transfer find the room after a new sign-in or on another device, whatever
 * the browser kept (the one they are in the room of comes first).
 */
export function myOpenCheckInsQuery() {
  return queryOptions({
    queryKey: checkInKeys.mine,
    queryFn: ({ signal }) =>
      api.get<MyOpenCheckIn[]>('api/SchedulingLocalCheckIn/myOpenCheckIns', { signal }),
  });
}

export function checkInRecordQuery(id: string) {
  return queryOptions({
    queryKey: checkInKeys.record(id),
    queryFn: ({ signal }) =>
      api.get<CheckInRecord>(`api/SchedulingLocalCheckIn/findCheckInById/${id}`, { signal }),
  });
}

export function checkInExamsQuery(id: string, page: number, pageSize: number) {
  return queryOptions({
    queryKey: checkInKeys.exams(id, page, pageSize),
    queryFn: ({ signal }) =>
      api.get<CheckInExamPage>('api/SchedulingLocalCheckIn/exams', {
        query: { checkInId: id, page, pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export type CheckInSearchParams = {
  page: number;
  pageSize: number;
  schedulingLocal: string | null;
  examiner: string;
  status: 'open' | 'closed' | null;
  startDate: string | null;
  endDate: string | null;
};

export function searchCheckInsQuery(params: CheckInSearchParams) {
  return queryOptions({
    queryKey: checkInKeys.search(params),
    queryFn: ({ signal }) =>
      api.get<CheckInPage>('api/SchedulingLocalCheckIn/searchCheckIn', {
        query: {
          page: params.page,
          pageSize: params.pageSize,
          schedulingLocal: params.schedulingLocal ?? undefined,
          examiner: params.examiner || undefined,
          status: params.status ?? undefined,
          startDate: params.startDate ?? undefined,
          endDate: params.endDate ?? undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Examiner 2's e-mail and password, for one admission: opening a room at the
 * post `schedulingLocal`, or joining / receiving the open record `checkInId`.
 */
export function confirmSecondExaminer(input: {
  email: string;
  password: string;
  firstViewerCpf?: string;
  schedulingLocal?: string;
  checkInId?: string;
}) {
  return api.post<ViewerCheckinResponse>('api/Auth/viewer-checkin', input);
}

/** Spec 7: the biometric viewer check-in call `{cpf, image, uf, local}`, with the burst. */
export function validateExaminerFace(input: {
  /** The examiner's CPF, or (leaving the room) the examiner of the record. */
  cpf?: string;
  checkInViewerId?: string;
  /** Examiner 2, named by the proof of their password check. */
  proctoringToken?: string;
  capture: Capture;
  uf: string;
  local: string;
}) {
  return api.post<BiometricViewerCheckinResponse>('api/Auth/biometric-viewer-checkin', {
    cpf: input.cpf,
    checkInViewerId: input.checkInViewerId,
    proctoringToken: input.proctoringToken,
    challengeId: input.capture.challengeId,
    image: input.capture.image,
    frames: input.capture.frames,
    // The examiner's own password, when the capture flow asked for it.
    password: input.capture.password,
    uf: input.uf,
    local: input.local,
    deviceId: getDeviceId(),
  });
}

export function openRoom(input: CheckInRequest) {
  return api.post<CheckInResponse>('api/SchedulingLocalCheckIn/checkIn', {
    ...input,
    deviceId: getDeviceId(),
  });
}

export function updateRoom(id: string, input: UpdateCheckInRequest) {
  return api.put<CheckInRecord>(`api/SchedulingLocalCheckIn/update-checkIn/${id}`, input);
}

export function leaveRoom(input: CheckOutRequest) {
  return api.post<CheckInRecord>('api/SchedulingLocalCheckIn/checkOut', input);
}

export function forceCloseRoom(input: ForceCloseRequest) {
  return api.post<CheckInRecord>('api/SchedulingLocalCheckIn/forceClose', input);
}

/** The ADMIN's own unit settings (`api/FederativeUnit/settings`): whether a face alone admits. */
export function unitSettingsQuery() {
  return queryOptions({
    queryKey: checkInKeys.unitSettings,
    queryFn: ({ signal }) => api.get<UnitSettings>('api/FederativeUnit/settings', { signal }),
  });
}

export function saveUnitSettings(input: UnitSettingsUpdate) {
  return api.put<UnitSettings>('api/FederativeUnit/settings', input);
}
