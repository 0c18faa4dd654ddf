/** An error line shown above the content it concerns, read out by screen readers (role alert). */
export function ErrorBar({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <div className="error-bar" role="alert">
      {message}
    </div>
  )
}
