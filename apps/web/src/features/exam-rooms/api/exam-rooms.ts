/** The exam-room calls (`api/ExamRoom`); query keys live in these factories only. */
import type {
  Certificate,
  BoardExam,
  CreateRoomInput,
  ExamRoom,
  RoomAction,
  RoomBoard,
  RoomOccurrenceInput,
  StationInput,
  UpdateRoomInput,
  UpdateStationInput,
} from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { roomKeys } from '../../../api/unit-rooms';

// The keys and the room list live in lib (the check-in screens read them too).
export { roomKeys, roomsQuery } from '../../../api/unit-rooms';

export function boardQuery(id: string, day: string | null) {
  return queryOptions({
    queryKey: roomKeys.board(id, day),
    queryFn: ({ signal }) =>
      api.get<RoomBoard>(`api/ExamRoom/${id}/board`, {
        query: { day: day ?? undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function unplacedQuery(post: string, day: string | null) {
  return queryOptions({
    queryKey: roomKeys.unplaced(post, day),
    queryFn: ({ signal }) =>
      api.get<BoardExam[]>('api/ExamRoom/unplaced', {
        query: { schedulingLocal: post, day: day ?? undefined },
        signal,
      }),
  });
}

export const createRoom = (input: CreateRoomInput) => api.post<ExamRoom>('api/ExamRoom', input);
export const editRoom = (id: string, input: UpdateRoomInput) =>
  api.put<ExamRoom>(`api/ExamRoom/${id}`, input);
export const addStation = (id: string, input: StationInput) =>
  api.post<ExamRoom>(`api/ExamRoom/${id}/stations`, input);
export const editStation = (id: string, stationId: string, input: UpdateStationInput) =>
  api.put<ExamRoom>(`api/ExamRoom/${id}/stations/${stationId}`, input);

export const actOnExam = (roomId: string, examId: string, action: RoomAction) =>
  api.post<BoardExam>(`api/ExamRoom/${roomId}/exams/${examId}/action`, { action });
export const recordOccurrence = (roomId: string, examId: string, input: RoomOccurrenceInput) =>
  api.post<BoardExam>(`api/ExamRoom/${roomId}/exams/${examId}/occurrences`, input);

/** Issues (or gets) the certificate of a finished exam. */
export const issueCertificate = (examId: string) =>
  api.post<Certificate>(`api/Certificate/${examId}`);

/** The certificate's PDF, as the server renders it. */
export const certificatePdf = (id: string) => api.download(`api/Certificate/${id}/pdf`);
